# `opa test examples/blog/policy`: the blog policy's own tests.
package blog.authz_test

import data.blog.authz

reader := {"id": "ann@example.com", "groups": ["reader"], "claims": {"author_id": "a-1"}}

editor := {"id": "ed@example.com", "groups": ["editor"], "claims": {}}

test_anyone_gets_a_published_article if {
	authz.allow with input as {"subject": reader, "action": "get", "resource": "article", "object": {"published": true, "author_id": "a-2"}}
}

test_an_author_gets_her_draft if {
	authz.allow with input as {"subject": reader, "action": "get", "resource": "article", "object": {"published": false, "author_id": "a-1"}}
}

test_a_reader_does_not_get_another_draft if {
	not authz.allow with input as {"subject": reader, "action": "get", "resource": "article", "object": {"published": false, "author_id": "a-2"}}
}

test_an_editor_gets_every_draft if {
	authz.allow with input as {"subject": editor, "action": "get", "resource": "article", "object": {"published": false, "author_id": "a-2"}}
}

test_only_drafts_are_published if {
	authz.allow with input as {"subject": editor, "action": "publish_article", "resource": "article", "object": {"published": false}}
	not authz.allow with input as {"subject": editor, "action": "publish_article", "resource": "article", "object": {"published": true}}
}

test_other_routes_are_left_to_groups_and_guards if {
	authz.allow with input as {"subject": reader, "action": "update", "resource": "article", "object": {"published": false}}
}
