"""The library's FastAPI application: the generated routes and error handlers."""

from fastapi import FastAPI

from library.api.lending.routes import router
from library.api.runtime.errors import register_error_handlers

app = FastAPI(title="Library")
app.include_router(router)
register_error_handlers(app)
