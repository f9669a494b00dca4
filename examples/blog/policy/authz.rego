# The blog's authorization policy (config/opa.jsonnet), decided by OPA at blog/authz/allow.
#
# input.subject: the token's subject (id), the user's groups and the token's claims;
# input.action: the operation (get, update, publish_article, ...); input.resource: the
# resource (article); input.object: the row's fields, on routes about one row. A list
# shows the rows whose `get` is allowed: OPA evaluates this policy with input.object
# unknown, and the backend turns what remains into SQL, so conditions on the object stay
# within equality, comparison, membership, and, or and not (docs/authorization.md).
package blog.authz

default allow := false

sees_everything if {
	some group in input.subject.groups
	group in {"editor", "admin"}
}

# Reading: published articles, one's own, and every article for editors and admins.
allow if {
	input.action == "get"
	input.object.published == true
}

allow if {
	input.action == "get"
	input.object.author_id == input.subject.claims.author_id
}

allow if {
	input.action == "get"
	sees_everything
}

# Publishing: drafts only (the route's groups say who).
allow if {
	input.action == "publish_article"
	input.object.published == false
}

# The other routes: their groups and guards decide.
allow if not input.action in {"get", "publish_article"}
