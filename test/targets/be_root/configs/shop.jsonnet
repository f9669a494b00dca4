// The smallest be_root config: every other key takes its default.
{ name: 'shop' }
