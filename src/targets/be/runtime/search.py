"""Search of generated lists (``?q=``): trigram similarity or full-text, ranked.

``TrigramSearch`` (PostgreSQL's ``pg_trgm``) finds rows where a field contains the
text, is similar to it or has a word similar to it, so typos still match; the rank is
the best word similarity. ``pg_trgm.similarity_threshold`` (0.3) and
``pg_trgm.word_similarity_threshold`` (0.6) tune how loose a match may be.
``FullTextSearch`` matches ``websearch_to_tsquery`` (quoted phrases, ``or``,
``-word``) against the fields' ``tsvector`` and ranks with ``ts_rank``. The text is
always a bound parameter. ``indexes`` gives the indexes each search needs;
:mod:`runtime.indexes` creates them.
"""

import hashlib
from typing import Annotated, Any

from pydantic import StringConstraints
from sqlalchemy import Float, Index, func, literal, or_
from sqlalchemy import text as sql_text
from sqlalchemy.sql.elements import ColumnElement

from .ordering import ColumnLike, SortKey, as_expression

SearchText = Annotated[str, StringConstraints(strip_whitespace=True, max_length=200)]
"""The ``q`` of a list: surrounding blanks dropped (blank means no search), bounded."""


def _fingerprint(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


class TrigramSearch:
    """Substring and similar-word search over text columns, with ``pg_trgm``."""

    extensions = ("pg_trgm",)

    def __init__(self, *columns: ColumnLike) -> None:
        """*columns* are the text columns searched."""
        self._columns = [as_expression(column) for column in columns]

    def match(self, text: str) -> ColumnElement[bool]:
        """Rows where a column contains *text* (any case), or is similar to it
        (``%``), or has a word similar to it (``<%``); the index serves all three."""
        query = literal(text)
        return or_(
            *(column.icontains(text, autoescape=True) for column in self._columns),
            *(query.op("%")(column) for column in self._columns),
            *(query.op("<%")(column) for column in self._columns),
        )

    def rank(self, text: str) -> ColumnElement[float]:
        """The best word similarity of *text* to any column (0 to 1)."""
        scores = [
            func.word_similarity(literal(text), func.coalesce(column, sql_text("''")))
            for column in self._columns
        ]
        score = scores[0] if len(scores) == 1 else func.greatest(*scores)
        return score.cast(Float)

    def sort_key(self, text: str) -> SortKey:
        """The relevance order of *text*: best match first."""
        return SortKey(f"rank:{_fingerprint(text)}", self.rank(text), descending=True)

    def indexes(self, name: str) -> list[Index]:
        """One GIN trigram index per column, named ``{name}_{column}``."""
        return [
            Index(
                f"{name}_{column.key}",
                column,
                postgresql_using="gin",
                postgresql_ops={column.key: "gin_trgm_ops"},
            )
            for column in self._columns
        ]


class FullTextSearch:
    """Full-text search over text columns (or a ``tsvector`` column), ranked."""

    extensions: tuple[str, ...] = ()

    def __init__(
        self,
        *columns: ColumnLike,
        language: str = "simple",
        vector: ColumnLike | None = None,
    ) -> None:
        """Search *columns* as one document in the text search *language*, or the
        ``tsvector`` column *vector* when the model keeps one."""
        if not language.isidentifier():
            raise ValueError(f"not a text search configuration name: {language!r}")
        self._columns = [as_expression(column) for column in columns]
        # Part of the indexed expression, so a literal rather than a bound value.
        self._language = sql_text(f"'{language}'::regconfig")
        self._vector = as_expression(vector) if vector is not None else None

    def document(self) -> ColumnElement[Any]:
        """The ``tsvector`` searched; its expression is exactly the one indexed."""
        if self._vector is not None:
            return self._vector
        parts = [func.coalesce(column, sql_text("''")) for column in self._columns]
        joined = parts[0]
        for part in parts[1:]:
            joined = joined.op("||")(sql_text("' '")).op("||")(part)
        return func.to_tsvector(self._language, joined)

    def _query(self, text: str) -> ColumnElement[Any]:
        return func.websearch_to_tsquery(self._language, literal(text))

    def match(self, text: str) -> ColumnElement[bool]:
        """Rows whose document matches *text* as a web search query."""
        return self.document().op("@@")(self._query(text))

    def rank(self, text: str) -> ColumnElement[float]:
        """How well a row's document matches *text* (``ts_rank``)."""
        return func.ts_rank(self.document(), self._query(text)).cast(Float)

    def sort_key(self, text: str) -> SortKey:
        """The relevance order of *text*: best match first."""
        return SortKey(f"rank:{_fingerprint(text)}", self.rank(text), descending=True)

    def indexes(self, name: str) -> list[Index]:
        """The GIN index of the document."""
        return [Index(name, self.document(), postgresql_using="gin")]


Search = TrigramSearch | FullTextSearch
"""A list's search."""
