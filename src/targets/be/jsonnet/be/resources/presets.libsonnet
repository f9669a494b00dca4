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
}
