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
  // opts may hold status_code, response, slug, summary, require_auth and pass_user.
  // Only the keys given are written: the schema applies the defaults (params: []).
  action(name, fn, target, params=null, opts={}):: {
    name: name,
    type: 'action',
    fn: fn,
    target: target,
  } + (if params == null then {} else { params: params }) + opts,

  instanceAction(name, fn, params=null, opts={}):: self.action(name, fn, 'instance', params, opts),

  collectionAction(name, fn, params=null, opts={}):: self.action(name, fn, 'collection', params, opts),
}
