// Comms helpers of the `be` target with kiln's names and arguments (docs/comms.md#kilns-shape):
// the project's `comms` in kiln's shape, its message types, and a template kept in a file.
//
//   local comms = import 'be/comms/comms.libsonnet';
//   comms: comms.platform({
//     message_model: 'shop.models.CommMessage',
//     recipient_model: 'shop.models.CommRecipient',
//     transports: { email: 'shop.comms.email_transport' },
//     types: [comms.type({ name: 'order_placed', context_schema: 'shop.comms.OrderPlaced',
//                          subject_template: 'Order {{ reference }}', body_template: comms.path('templates/order.txt') })],
//   }),
//
// The objects pass through as written: the config schema checks every key and fills the
// defaults. A `path` is read when the backend is generated, relative to the directory codegen
// runs in, as kiln reads it.
{
  platform(opts):: opts,
  type(opts):: opts,
  path(p):: { path: p },
}
