// be_root with authorization by OPA: a starter policy and its tests.
{
  name: 'shop',
  auth: true,
  opa: true,
}
