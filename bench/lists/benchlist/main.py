"""The list benchmark's FastAPI application."""

from fastapi import FastAPI

from benchlist.api.runtime.errors import register_error_handlers
from benchlist.api.store.routes import router

app = FastAPI(title="List benchmark")
app.include_router(router)
register_error_handlers(app)
