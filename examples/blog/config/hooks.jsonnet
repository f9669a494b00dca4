// The single-app blog with hooks and serializers of its own (docs/hooks.md); blog/hooks.py
// holds the functions named here.
// - articles: create and update store the body's word count (`pre`); create and delete
//   write to the activity log once committed (`post`);
// - authors: get answers with blog.hooks.AuthorCard, made by blog.hooks.author_card;
// - tags: list answers each tag as a plain string.
// The generated tests expect each write to store what was sent and each response to show
// the resource's fields, which these hooks change: they are off here.
local base = import 'project.jsonnet';
local r = import 'resources.libsonnet';

base {
  generate_tests: false,
  resources: [
    if resource.model == 'blog.models.Article' then r.amendOperations(resource, {
      create: { pre: 'blog.hooks.count_words', post: 'blog.hooks.record_article_created' },
      update: { pre: 'blog.hooks.count_words' },
      delete: { post: 'blog.hooks.record_article_deleted' },
    })
    else if resource.model == 'blog.models.Author' then r.amendOperations(resource, {
      get: { serializer: { fn: 'blog.hooks.author_card', schema: 'blog.hooks.AuthorCard' } },
    })
    else if resource.model == 'blog.models.Tag' then r.amendOperations(resource, {
      list: { serializer: 'blog.hooks.tag_label' },
    })
    else resource
    for resource in super.resources
  ],
}
