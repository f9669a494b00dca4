# Who may do what with the notes of shop: the policy of the routes with `opa: true`
# (config/project.jsonnet). The backend asks OPA's Data API for `authz/allow` with
#   input.subject   the token's subject (id), the user's groups and the token's claims
#   input.action    the operation: get, create, update, delete, pin
#   input.resource  the resource: note
#   input.object    the note's fields, on routes about one note
# A list shows the notes `get` allows: OPA evaluates this policy with input.object
# unknown, and the backend turns what is left into SQL. Keep conditions on the object to
# comparisons, membership (`in`), and, or and not (codegen's docs/authorization.md).
#
# Serve it next to the backend: opa run --server --addr 127.0.0.1:8181 policy/
# Test it: opa test policy/
package authz

default allow := false

# Reading: every signed-in user.
allow if input.action == "get"

# Writing: every signed-in user may create notes and change or delete unpinned ones.
allow if {
	input.action in {"create", "update", "pin", "delete"}
	not input.object.pinned
}

# Pinned notes: members of the editor group only.
allow if {
	input.action in {"update", "pin", "delete"}
	"editor" in input.subject.groups
}
