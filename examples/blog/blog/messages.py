"""Context models of the blog's outgoing messages (config/comms.jsonnet).

A message type names one of these by its dotted path; ``send_comm`` validates the
context it is given against it, and the templates are rendered with its fields.
"""

from pydantic import BaseModel


class ArticlePublished(BaseModel):
    """What the ``article_published`` e-mail and webhook say about an article."""

    title: str
    author: str
    summary: str
