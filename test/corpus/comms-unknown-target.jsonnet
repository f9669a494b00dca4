local base = import '_base.libsonnet';
base {
  comms: {
    types: [{ name: 'restocked', context: 'shop.messages.Restocked', subject: 'Back: {{ name }}', body: 'In stock.', targets: ['email', 'sms'] }],
    targets: [{ name: 'email', type: 'smtp' }],
  },
}
