"""The blog's FastAPI application: the generated routes and error handlers, nothing else.

Tables are not created on import; run migrations (or ``Base.metadata.create_all``)
before serving.
"""

from fastapi import FastAPI

from blog.api.content.routes import router
from blog.api.runtime.errors import register_error_handlers

app = FastAPI(title="Blog")
app.include_router(router)
register_error_handlers(app)
