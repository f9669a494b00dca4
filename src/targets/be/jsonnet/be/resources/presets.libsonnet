// Operation presets of the `be` target, for a resource's `operations` list.
//
//   local p = import 'be/resources/presets.libsonnet';
//   local f = import 'be/fields.libsonnet';
//   operations: p.crud + [
//     p.instanceAction('publish', 'blog.actions.publish'),
//     p.collectionAction('import_feed', 'blog.actions.import_feed', [f.str('url')], { response: 'none' }),
//   ]
{
  // The five CRUD operations.
  crud:: ['get', 'list', 'create', 'update', 'delete'],

  // An action entry. target: 'instance' (POST /{pk}/{slug}) or 'collection' (POST /{slug}).
  // opts may hold status_code, response, slug, summary, require_auth, pass_user, and with
  // kiln's convention body and model_param.
  // Only the keys given are written: the schema applies the defaults (params: []).
  //
  // kiln's calls work too: `action(name=..., fn=..., require_auth=..., status_code=...)`, or
  // `action(name, fn, true)` with require_auth third. Without a target, the function has
  // kiln's signature (convention 'kiln': fn(instance, db=..., body=...)) and kiln's default of
  // require_auth (true) is kept, so a public resource's actions stay protected as in kiln;
  // the schema mounts such an action on the instance and warns that it did.
  action(name, fn, target=null, params=null, opts={}, require_auth=null, status_code=null)::
    local kilnAuth = if std.isBoolean(target) then target else require_auth;
    local mount = if std.isBoolean(target) then null else target;
    {
      name: name,
      type: 'action',
      fn: fn,
    }
    + (if mount == null then { convention: 'kiln', require_auth: if kilnAuth == null then true else kilnAuth } else {})
    + (if mount != null then { target: mount } else {})
    + (if mount != null && kilnAuth != null then { require_auth: kilnAuth } else {})
    + (if params == null then {} else { params: params })
    + (if status_code == null then {} else { status_code: status_code })
    + opts,

  instanceAction(name, fn, params=null, opts={}):: self.action(name, fn, 'instance', params, opts),

  collectionAction(name, fn, params=null, opts={}):: self.action(name, fn, 'collection', params, opts),

  // The columns of a file's row (docs/be.md#files), the read fields of files()'s get;
  // uploaded_at is null until the upload is complete.
  file_fields:: [
    { name: 'id', type: 'uuid' },
    { name: 's3_key', type: 'str' },
    { name: 'content_type', type: 'str', nullable: true },
    { name: 'size_bytes', type: 'int', nullable: true },
    { name: 'original_filename', type: 'str', nullable: true },
    { name: 'created_at', type: 'datetime' },
    { name: 'uploaded_at', type: 'datetime', nullable: true },
  ],

  // A file resource's operations, kiln's call: get (fields, default file_fields; left out with
  // include_get=false), then POST /upload, /{pk}/complete, /{pk}/download, /{pk}/delete-file.
  // codegen's keys beside kiln's: content_types (the media types an upload may declare) and
  // max_size (the most bytes), both checked on the upload's body.
  files(require_auth=true, fields=null, include_get=true, content_types=null, max_size=null)::
    local auth = if require_auth == null then {} else { require_auth: require_auth };
    (if include_get then [{ name: 'get', fields: if fields == null then $.file_fields else fields } + auth] else [])
    + [
      { name: 'upload', type: 'file_upload' } + auth
      + (if content_types == null then {} else { content_types: content_types })
      + (if max_size == null then {} else { max_size: max_size }),
      { name: 'complete', type: 'file_complete' } + auth,
      { name: 'download', type: 'file_download' } + auth,
      { name: 'delete_file', type: 'file_delete' } + auth,
    ],

  // The signed-in user's saved views of the resource's list (docs/be.md#saved-views):
  // GET and POST {prefix}/views, GET, PATCH and DELETE {prefix}/views/{view_id}. list names
  // the list entry whose query parameters a view keeps (default 'list').
  //
  // kiln's call works too, `saved_views(serializer, owner_guard, fields, create_fields,
  // update_fields, filter_fields)`: its arguments are kept on the first entry, where a
  // warning names each (a view is its owner's by construction, and codegen's own shape).
  saved_views(serializer=null, owner_guard=null, fields=null, create_fields=null, update_fields=null, filter_fields=null, list=null, require_auth=null)::
    local common = (if list == null then {} else { list: list }) + (if require_auth == null then {} else { require_auth: require_auth });
    local kiln = {
      [key]: value
      for key in ['serializer', 'owner_guard', 'fields', 'create_fields', 'update_fields', 'filter_fields']
      for value in [{ serializer: serializer, owner_guard: owner_guard, fields: fields, create_fields: create_fields, update_fields: update_fields, filter_fields: filter_fields }[key]]
      if value != null
    };
    [
      { name: 'list_views', type: 'view_list' } + common + kiln,
      { name: 'create_view', type: 'view_create' } + common,
      { name: 'get_view', type: 'view_get' } + common,
      { name: 'update_view', type: 'view_update' } + common,
      { name: 'delete_view', type: 'view_delete' } + common,
    ],
}
