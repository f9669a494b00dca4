// The backend of shop. `codegen generate --target be --config config/project.jsonnet`
// writes the API package shop.api (shop/api/) from it: regenerate after every
// change. Models live in shop/models.py; codegen's docs/be.md lists every key.
local db = import 'be/db/databases.libsonnet';
local f = import 'be/fields.libsonnet';

// Fields clients may send: created_at is set by the database.
local noteInput = [f.str('title'), f.str('body', { default: '' })];

{
  package_prefix: 'shop.api',
  databases: [db.postgres('main', { url_env: 'DATABASE_URL', default: true })],
  module: 'core',
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
