// JWT authentication helper of the `be` target: `jwt(options)` returns the project's
// `auth` object.
//
//   local auth = import 'be/auth/jwt.libsonnet';
//   auth: auth.jwt({ secret_env: 'JWT_SECRET', verify_credentials_fn: 'blog.auth.verify_credentials' }),
//
// options: secret_env (required), algorithm, token_url, exclude_paths,
// verify_credentials_fn, get_current_user_fn, token_lifetime_seconds, issuer, audience.
{
  jwt(options):: { type: 'jwt' } + options,
}
