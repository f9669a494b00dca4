// A typical fe_root config: every key but name and title by default.
{ name: 'shop-web', title: 'Shop' }
