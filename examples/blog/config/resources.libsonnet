// The blog's resources, shared by the single-app and the multi-app configs.
//
// `references` names the resource a key field points at: generated tests create that
// resource first and send its key (an article needs an author, a comment an article).
local f = import 'be/fields.libsonnet';
local p = import 'be/resources/presets.libsonnet';

local authorBrief = [f.uuid('id'), f.str('name')];

local withoutReference(field) = { [key]: field[key] for key in std.objectFields(field) if key != 'references' };

{
  // A resource without `references`, for an app that does not serve the resources it
  // refers to (references only name resources of the same app).
  withoutReferences(resource):: resource {
    fields: [withoutReference(field) for field in resource.fields],
    operations: [
      if std.isObject(op) && std.objectHas(op, 'fields') then op { fields: [withoutReference(field) for field in op.fields] } else op
      for op in resource.operations
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
    // created_at is set by the database: leave it out of request bodies.
    local writable = [f.str('name'), f.email('email')],
    operations: [
      'get',
      'list',
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
      f.datetime('published_at', { nullable: true }),
      f.date('publish_on', { nullable: true }),
      f.int('word_count', { default: 0 }),
      f.float('rating', { nullable: true }),
      f.json('extra', { default: {} }),
      f.uuid('author_id', { references: 'author' }),
      f.nested('author', 'blog.models.Author', authorBrief, load='joined'),
      f.nested('tags', 'blog.models.Tag', [f.int('id'), f.str('name')], many=true),
      // Two levels, mixed: comments by selectin, each comment's author joined.
      f.nested('comments', 'blog.models.Comment', [
        f.uuid('id'),
        f.str('body'),
        f.nested('author', 'blog.models.Author', authorBrief, load='joined'),
      ], many=true, load='selectin'),
    ],
    operations: p.crud + [
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
    operations: p.crud,
  },

  comment: {
    model: 'blog.models.Comment',
    fields: [
      f.uuid('id'),
      f.str('body'),
      f.datetime('created_at'),
      f.uuid('article_id', { references: 'article' }),
      f.uuid('author_id', { references: 'author' }),
      f.nested('author', 'blog.models.Author', authorBrief, load='joined'),
    ],
    // The create body's article_id and author_id inherit `references` from the fields above.
    local writable = [f.str('body'), f.uuid('article_id'), f.uuid('author_id')],
    operations: [
      'get',
      'list',
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
    operations: p.crud,
  },
}
