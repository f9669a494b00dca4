"""The blog's FastAPI application: the generated routes and error handlers, no more.

Tables are not created on import; run migrations (or ``Base.metadata.create_all``)
before serving. When the backend is generated with auth (config/auth.jsonnet or
config/auth_custom.jsonnet), the generated ``blog.api.auth`` package is mounted too: it
serves the token endpoint and refuses to start without the signing key. With ``cors``
(config/sessions.jsonnet), the generated ``add_cors`` installs the CORS middleware.
"""

from importlib import import_module
from importlib.util import find_spec

from fastapi import FastAPI

from blog.api.content.routes import router
from blog.api.runtime.errors import register_error_handlers

app = FastAPI(title="Blog")
app.include_router(router)
register_error_handlers(app)

# One main.py for every config of the example. With auth only, an application would
# simply write: from blog.api.auth import router as auth_router
if find_spec("blog.api.auth") is not None:
    app.include_router(import_module("blog.api.auth").router)
if find_spec("blog.api.cors") is not None:
    import_module("blog.api.cors").add_cors(app)
