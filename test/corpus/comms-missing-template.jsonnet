local base = import '_base.libsonnet';
base {
  comms: {
    types: [{ name: 'restocked', context: 'shop.messages.Restocked', subject: 'Back: {{ name }}', body: { file: 'templates/restocked.txt' }, targets: ['hook'] }],
    targets: [{ name: 'hook', type: 'webhook', url_env: 'HOOK_URL', secret_env: 'HOOK_SECRET' }],
  },
}
