// The lending library: `codegen generate --target be --config config/library.jsonnet`
// writes the backend into library/api. Seven models with integer, UUID and text keys,
// a many-to-many link (books and genres), relations two levels deep (an author's books
// with their publisher, which may be absent; a loan's copy with its book), actions,
// and generated pytest suites.
local db = import 'be/db/databases.libsonnet';
local f = import 'be/fields.libsonnet';
local p = import 'be/resources/presets.libsonnet';

local publisherBrief = [f.int('id'), f.str('name'), f.str('country')];

{
  package_prefix: 'library.api',
  databases: [db.postgres('primary', { url_env: 'DATABASE_URL', default: true })],
  generate_tests: true,
  module: 'lending',
  resources: [
    {
      model: 'library.models.Publisher',
      pk_type: 'int',
      fields: [f.int('id'), f.str('name'), f.str('country', { description: 'ISO 3166-1 alpha-2 code, e.g. GB' })],
      operations: p.crud,
    },
    {
      model: 'library.models.Author',
      fields: [
        f.uuid('id'),
        f.str('name'),
        f.date('born_on', { nullable: true }),
        // Two levels: each book with its publisher, which a book may lack.
        f.nested('books', 'library.models.Book', [
          f.uuid('id'),
          f.str('title'),
          f.nested('publisher', 'library.models.Publisher', publisherBrief, load='joined', nullable=true),
        ], many=true),
      ],
      operations: p.crud,
    },
    {
      model: 'library.models.Genre',
      pk: 'code',
      pk_type: 'str',
      fields: [f.str('code'), f.str('label')],
      operations: p.crud,
    },
    {
      model: 'library.models.Book',
      fields: [
        f.uuid('id'),
        f.str('title'),
        f.str('isbn'),
        f.date('published_on', { nullable: true }),
        f.float('price'),
        f.float('rating', { nullable: true }),
        f.uuid('author_id', { references: 'author' }),
        f.int('publisher_id', { nullable: true, references: 'publisher' }),
        f.nested('author', 'library.models.Author', [f.uuid('id'), f.str('name')], load='joined'),
        f.nested('publisher', 'library.models.Publisher', publisherBrief, load='joined', nullable=true),
        f.nested('genres', 'library.models.Genre', [f.str('code'), f.str('label')], many=true),
        f.nested('copies', 'library.models.Copy', [f.int('id'), f.str('barcode')], many=true),
      ],
      operations: p.crud + [
        p.instanceAction('add_genre', 'library.actions.add_genre', [f.str('genre_code', { references: 'genre' })]),
        p.collectionAction('count_books', 'library.actions.count_books', [f.str('text')]),
      ],
    },
    {
      model: 'library.models.Copy',
      name: 'copy',
      route_prefix: '/copies',
      pk_type: 'int',
      fields: [
        f.int('id'),
        f.uuid('book_id', { references: 'book' }),
        f.str('barcode'),
        f.str('condition', { default: 'good' }),
        f.nested('book', 'library.models.Book', [f.uuid('id'), f.str('title')], load='joined'),
      ],
      operations: p.crud + [
        p.instanceAction('lend_copy', 'library.actions.lend_copy', [
          f.uuid('member_id', { references: 'member' }),
          f.date('due_on'),
        ]),
      ],
    },
    {
      model: 'library.models.Member',
      fields: [f.uuid('id'), f.str('name'), f.email('email'), f.int('card_number'), f.datetime('joined_at')],
      local writable = [f.str('name'), f.email('email'), f.int('card_number')],
      operations: ['get', 'list', { name: 'create', fields: writable }, { name: 'update', fields: writable }, 'delete'],
    },
    {
      model: 'library.models.Loan',
      pk_type: 'int',
      fields: [
        f.int('id'),
        f.int('copy_id', { references: 'copy' }),
        f.uuid('member_id', { references: 'member' }),
        f.date('due_on'),
        f.datetime('borrowed_at'),
        f.datetime('returned_at', { nullable: true }),
        // Two levels, and a field named like a BaseModel method: `copy`.
        f.nested('copy', 'library.models.Copy', [
          f.int('id'),
          f.str('barcode'),
          f.nested('book', 'library.models.Book', [f.uuid('id'), f.str('title')], load='joined'),
        ], load='joined'),
        f.nested('member', 'library.models.Member', [f.uuid('id'), f.str('name')], load='joined'),
      ],
      local writable = [f.int('copy_id'), f.uuid('member_id'), f.date('due_on')],
      operations: [
        'get',
        'list',
        { name: 'create', fields: writable },
        { name: 'update', fields: [f.date('due_on'), f.datetime('returned_at', { nullable: true })] },
        'delete',
        p.instanceAction('return_loan', 'library.actions.return_loan'),
      ],
    },
  ],
}
