// The backend of shop. `codegen generate --target be --config config/project.jsonnet`
// (or `codegen dev`, on every save) writes the API package shop.api (shop/api/)
// from it. Models live in shop/models.py, actions in shop/actions.py;
// codegen's docs/be.md lists every key.
local db = import 'be/db/databases.libsonnet';
local f = import 'be/fields.libsonnet';
local l = import 'be/operations/list.libsonnet';
local p = import 'be/resources/presets.libsonnet';
local auth = import 'be/auth/jwt.libsonnet';

// Fields clients may send. Left out, create and update take every field of the resource
// but its generated key: created_at and pinned too, which the database and pin_note set.
local noteInput = [f.str('title'), f.str('body', { default: '' })];

{
  package_prefix: 'shop.api',
  databases: [db.postgres('main', { url_env: 'DATABASE_URL', default: true })],
  // Tokens from POST /auth/token; the signing secret is read from JWT_SECRET at startup.
  // Routes with opa: true ask the OPA server at OPA_URL (policy/authz.rego) what a user may do.
  auth: auth.jwt({
    secret_env: 'JWT_SECRET',
    verify_credentials_fn: 'shop.auth.verify_credentials',
    opa: { decision: 'authz/allow', url_env: 'OPA_URL' },
  }),
  module: 'core',
  resources: [
    {
      model: 'shop.models.Note',
      opa: true,
      fields: [f.uuid('id'), f.str('title'), f.str('body'), f.bool('pinned'), f.datetime('created_at')],
      operations: [
        'get',
        // Newest first: random uuid keys give no useful order of their own (docs/be.md, lists).
        l.searchable(order={ fields: ['created_at', 'title'], default: 'created_at', default_dir: 'desc' }),
        { name: 'create', fields: noteInput },
        { name: 'update', fields: noteInput },
        'delete',
        // POST /notes/{pk}/pin calls shop.actions.pin_note(note, pinned=..., session=...);
        // every param has a default, so the body may be left out.
        p.instanceAction('pin', 'shop.actions.pin_note', [f.bool('pinned', { default: true })]),
      ],
    },
  ],
}
