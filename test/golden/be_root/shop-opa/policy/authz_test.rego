# Tests of policy/authz.rego: opa test policy/
package authz_test

import data.authz

user := {"id": "ada", "groups": [], "claims": {}}

editor := {"id": "grace", "groups": ["editor"], "claims": {}}

pinned := {"id": "3f0c", "title": "Rules", "pinned": true}

unpinned := {"id": "9a41", "title": "Ideas", "pinned": false}

test_every_user_reads_notes if {
	authz.allow with input as {"subject": user, "action": "get", "resource": "note", "object": pinned}
}

test_every_user_creates_notes if {
	authz.allow with input as {"subject": user, "action": "create", "resource": "note"}
}

test_every_user_changes_unpinned_notes if {
	authz.allow with input as {"subject": user, "action": "update", "resource": "note", "object": unpinned}
	authz.allow with input as {"subject": user, "action": "delete", "resource": "note", "object": unpinned}
}

test_only_editors_change_pinned_notes if {
	not authz.allow with input as {"subject": user, "action": "update", "resource": "note", "object": pinned}
	not authz.allow with input as {"subject": user, "action": "delete", "resource": "note", "object": pinned}
	authz.allow with input as {"subject": editor, "action": "update", "resource": "note", "object": pinned}
}

test_unknown_actions_are_denied if {
	not authz.allow with input as {"subject": editor, "action": "export", "resource": "note"}
}
