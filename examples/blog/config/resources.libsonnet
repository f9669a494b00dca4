// The blog's resources, shared by the single-app and the multi-app configs.
//
// `references` names the resource a key field points at: generated tests create that
// resource first and send its key (an article needs an author, a comment an article).
local f = import 'be/fields.libsonnet';
local l = import 'be/lists.libsonnet';
local p = import 'be/resources/presets.libsonnet';

local authorBrief = [f.uuid('id'), f.str('name')];

local withoutReference(field) = { [key]: field[key] for key in std.objectFields(field) if key != 'references' };
local local_(field) = !std.objectHas(field, 'type') || field.type != 'link';
local withoutRefFilters(modifier) =
  if modifier.type != 'filter' then modifier
  else modifier { fields: [field for field in modifier.fields if field.values != 'ref'] };
local keep(modifier) = modifier.type != 'filter' || modifier.fields != [];

{
  // A resource without `references`, link fields or ref filters, for an app that does not
  // serve the resources it refers to (references only name resources of the same app).
  withoutReferences(resource):: resource {
    fields: [withoutReference(field) for field in resource.fields if local_(field)],
    operations: [
      if !std.isObject(op) then op
      else op
           + (if std.objectHas(op, 'fields') then { fields: [withoutReference(field) for field in op.fields if local_(field)] } else {})
           + (if std.objectHas(op, 'modifiers') then { modifiers: [m for m in std.map(withoutRefFilters, op.modifiers) if keep(m)] } else {})
      for op in resource.operations
    ],
  },

  // `resource` with some operations amended: `changes` maps an operation's name to the fields
  // merged into it (a bare 'delete' becomes { name: 'delete' } first). A name the resource has
  // no operation of is an error, so a typo cannot leave an operation unamended.
  amendOperations(resource, changes)::
    local nameOf(op) = if std.isObject(op) then op.name else op;
    local unknown = std.setDiff(std.set(std.objectFields(changes)), std.set(std.map(nameOf, resource.operations)));
    assert unknown == [] : 'amendOperations: no operation named ' + std.join(', ', unknown);
    resource {
      operations: [
        if std.objectHas(changes, nameOf(op)) then (if std.isObject(op) then op else { name: op }) + changes[nameOf(op)] else op
        for op in super.operations
      ],
    },

  author: {
    model: 'blog.models.Author',
    fields: [
      f.uuid('id'),
      f.str('name'),
      f.email('email'),
      f.datetime('created_at'),
      // Subquery load: one correlated query for every author of the page.
      f.nested('articles', 'blog.models.Article', [f.uuid('id'), f.str('title')], many=true, load='subquery'),
    ],
    // Authors are named in links and in filter pickers by their name, found by trigram search.
    link: { name: 'name' },
    search: { fields: ['name'], strategy: 'trigram' },
    // created_at is set by the database: leave it out of request bodies.
    local writable = [f.str('name'), f.email('email')],
    operations: [
      'get',
      l.searchable(order=['name', 'created_at'], default='name'),
      { name: 'create', fields: writable },
      { name: 'update', fields: writable },
      'delete',
    ],
  },

  article: {
    model: 'blog.models.Article',
    fields: [
      f.uuid('id'),
      f.str('title'),
      f.str('body'),
      f.bool('published', { default: false }),
      // blog.models.ArticleStatus; the actions move it (publish, archive), the bodies never send it.
      f.str('status', { description: 'draft, published or archived' }),
      f.datetime('published_at', { nullable: true }),
      f.date('publish_on', { nullable: true }),
      f.int('word_count', { default: 0 }),
      f.float('rating', { nullable: true }),
      f.json('extra', { default: {} }),
      f.uuid('author_id', { references: 'author' }),
      f.nested('author', 'blog.models.Author', authorBrief, load='joined'),
      // Tags as links: { type: "tag", id, label }, the label from the tag's link (its name).
      f.link('tags', 'tag', many=true),
      // Two levels, mixed: comments by selectin, each comment's author joined.
      f.nested('comments', 'blog.models.Comment', [
        f.uuid('id'),
        f.str('body'),
        f.nested('author', 'blog.models.Author', authorBrief, load='joined'),
      ], many=true, load='selectin'),
    ],
    link: { name: 'title' },
    // Every scalar field but the key and the status, which only the actions change, and the
    // tags, sent as the list of their keys (the set is replaced: docs/be.md, Many-to-many writes).
    local writable = [
      field
      for field in self.fields
      if !std.member(['id', 'status'], field.name) && field.type != 'nested' && (field.type != 'link' || field.many)
    ],
    // The list answers with a slim shape; get and the writes with the full one.
    representations: [
      {
        name: 'summary',
        fields: [
          f.uuid('id'),
          f.str('title'),
          f.bool('published'),
          f.str('status'),
          f.datetime('published_at', { nullable: true }),
          f.float('rating', { nullable: true }),
          f.int('word_count'),
          f.link('author', 'author'),
        ],
      },
    ],
    // ?q= ranks articles by full-text relevance (english stemming) over title and body.
    search: { fields: ['title', 'body'], strategy: 'full_text', language: 'english' },
    operations: [
      'get',
      l.searchable(
        filters=[
          l.freeText('title'),
          l.bool('published'),
          l.enum('status', 'blog.models.ArticleStatus', ['eq', 'neq', 'in']),
          l.literal('rating', ['eq', 'gte', 'lte', 'is_null']),
          l.literal('word_count', ['gte', 'lte']),
          l.literal('publish_on', ['eq', 'gte', 'lte', 'is_null']),
          l.ref('author_id', 'author', ['eq', 'neq', 'in']),
          l.selfRef('id'),
        ],
        order=['title', 'rating', 'published_at', 'word_count'],
        default='published_at',
        dir='desc',
        page_size=20,
      ) { representation: 'summary' },
      { name: 'create', fields: writable },
      { name: 'update', fields: writable },
      'delete',
      p.instanceAction('publish_article', 'blog.actions.publish_article'),
      p.instanceAction('schedule_article', 'blog.actions.schedule_article', [
        f.date('publish_on'),
        f.str('note', { nullable: true }),
      ]),
      p.instanceAction('tag_article', 'blog.actions.tag_article', [f.int('tag_id', { references: 'tag' })]),
      p.collectionAction('archive_stale_articles', 'blog.actions.archive_stale_articles', [f.datetime('before')]),
      p.collectionAction('count_words', 'blog.actions.count_words', [f.str('text')]),
    ],
  },

  tag: {
    model: 'blog.models.Tag',
    pk_type: 'int',
    fields: [f.int('id'), f.str('name')],
    link: { name: 'name' },
    operations: ['get', l.searchable(order=['name'], default='name'), 'create', 'update', 'delete'],
  },

  comment: {
    model: 'blog.models.Comment',
    fields: [
      f.uuid('id'),
      f.str('body'),
      f.datetime('created_at'),
      f.uuid('article_id', { references: 'article' }),
      f.uuid('author_id', { references: 'author' }),
      f.link('author', 'author'),
    ],
    // The create body's article_id and author_id inherit `references` from the fields above.
    local writable = [f.str('body'), f.uuid('article_id'), f.uuid('author_id')],
    operations: [
      'get',
      l.searchable(
        filters=[l.ref('article_id', 'article'), l.ref('author_id', 'author')],
        order=['created_at'],
        default='created_at',
        dir='desc',
      ),
      { name: 'create', fields: writable },
      { name: 'update', fields: [f.str('body')] },
      'delete',
    ],
  },

  category: {
    model: 'blog.models.Category',
    pk: 'slug',
    pk_type: 'str',
    fields: [f.str('slug'), f.str('title')],
    // Numbered pages, with the total on request: categories are few.
    operations: ['get', { name: 'list', modifiers: [l.order(['title']), l.offset(page_size=20, max=50)] }, 'create', 'update', 'delete'],
  },
}
