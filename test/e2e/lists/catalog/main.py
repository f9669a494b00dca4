"""The catalog's FastAPI application: the generated routes and error handlers."""

from fastapi import FastAPI

from catalog.api.runtime.errors import register_error_handlers
from catalog.api.shop.routes import router

app = FastAPI(title="Catalog")
app.include_router(router)
register_error_handlers(app)
