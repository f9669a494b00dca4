"""The blog's FastAPI application: the generated router, no more.

Tables are not created on import; run migrations (or ``Base.metadata.create_all``)
before serving. The generated router brings the token endpoint when the backend is
generated with auth (config/auth.jsonnet or config/auth_custom.jsonnet), and the error
handlers, which its lifespan installs; they are installed here too because
``blog.site`` mounts this application inside another, which does not run its lifespan.
With ``cors`` (config/sessions.jsonnet), the generated ``add_cors`` installs the CORS
middleware.
"""

from importlib import import_module
from importlib.util import find_spec

from fastapi import FastAPI

from blog.api.content.routes import router
from blog.api.runtime.errors import register_error_handlers

app = FastAPI(title="Blog")
app.include_router(router)
register_error_handlers(app)

# One main.py for every config of the example.
if find_spec("blog.api.cors") is not None:
    import_module("blog.api.cors").add_cors(app)
