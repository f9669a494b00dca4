// The backend of Shop API. `codegen generate --target be --config config/project.jsonnet`
// writes the API package shop.web (shop/web/) from it: regenerate after every
// change. Models live in shop/models.py; codegen's docs/be.md lists every key.
local db = import 'be/db/databases.libsonnet';
local f = import 'be/fields.libsonnet';
local auth = import 'be/auth/jwt.libsonnet';

// Fields clients may send: created_at is set by the database.
local noteInput = [f.str('title'), f.str('body', { default: '' })];

{
  package_prefix: 'shop.web',
  databases: [db.postgres('main', { url_env: 'SHOP_DATABASE_URL', default: true })],
  // Tokens from POST /auth/token; the signing secret is read from JWT_SECRET at startup.
  auth: auth.jwt({ secret_env: 'JWT_SECRET', verify_credentials_fn: 'shop.auth.verify_credentials' }),
  module: 'store',
  resources: [
    {
      model: 'shop.models.Note',
      fields: [f.uuid('id'), f.str('title'), f.str('body'), f.datetime('created_at')],
      operations: [
        'get',
        'list',
        { name: 'create', fields: noteInput },
        { name: 'update', fields: noteInput },
        'delete',
      ],
    },
  ],
}
