// Authentication helper of the `be` target: `jwt(options)` returns the project's `auth`
// object. See docs/auth.md.
//
//   local auth = import 'be/auth/jwt.libsonnet';
//   auth: auth.jwt({ secret_env: 'JWT_SECRET', verify_credentials_fn: 'blog.auth.verify_credentials' }),
//   // or your own dependency, replacing the generated token flow:
//   auth: auth.jwt({ get_current_user_fn: 'blog.auth.current_user' }),
//
// The generated JWT flow: secret_env and verify_credentials_fn (required), algorithm,
// token_url, token_lifetime_seconds, issuer, audience. Either flow: exclude_paths.
{
  jwt(options):: { type: 'jwt' } + options,
}
