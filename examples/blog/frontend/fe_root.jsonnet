// The blog's front end, bootstrapped: `codegen generate --target fe_root --config
// fe_root.jsonnet --out <dir>` writes a Vite + React project; then copy config/fe.jsonnet
// over its starter and follow its README (save openapi.json, generate, build).
{ name: 'blog-web', title: 'Blog' }
