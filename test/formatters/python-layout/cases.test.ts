// Hand-picked layouts of generated-code lines, each expectation ruff's own output (re-checked
// against the pinned ruff on every run), plus the prose wrapping ruff leaves alone and E501
// accepts, and the errors for lines the formatter cannot lay out (comments in positions it
// does not handle among them).

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { formatPython } from "../../../src/formatters/python-layout/index.js";
import { ruffCheck, ruffFormat } from "./ruff.js";

interface Case {
  name: string;
  input: string;
  expected: string;
}

const CASES: Case[] = [
  {
    name: "call arguments hug their brackets on one indented line",
    input: `result = await session.scalar(select(Article).where(Article.slug == slug).limit(1), timeout=30)
`,
    expected: `result = await session.scalar(
    select(Article).where(Article.slug == slug).limit(1), timeout=30
)
`,
  },
  {
    name: "arguments that do not fit one line go one per line with a trailing comma",
    input: `response = await client.post("/articles", json={"title": "A title", "body": "Some body text"}, headers=auth_headers)
`,
    expected: `response = await client.post(
    "/articles",
    json={"title": "A title", "body": "Some body text"},
    headers=auth_headers,
)
`,
  },
  {
    name: "a def whose sole parameter splits gets a trailing comma",
    input: `def to_article_read_comments_nested_author_nested(author: Author) -> ArticleReadCommentsNestedAuthorNested:
    pass
`,
    expected: `def to_article_read_comments_nested_author_nested(
    author: Author,
) -> ArticleReadCommentsNestedAuthorNested:
    pass
`,
  },
  {
    name: "a def's parameters hug their parentheses, then go one per line",
    input: `async def list_articles(session: SessionDep, limit: Annotated[int, Query(ge=1, le=100)] = 20, cursor: str | None = None) -> Page[ArticleRead]:
    pass
`,
    expected: `async def list_articles(
    session: SessionDep,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    cursor: str | None = None,
) -> Page[ArticleRead]:
    pass
`,
  },
  {
    name: "decorators and a class with bases and keywords",
    input: `@router.get("/{article_id}", response_model=ArticleRead, status_code=status.HTTP_200_OK, summary="Read an article")
class ArticleRepository(BaseRepository[Article, ArticleCreate, ArticleUpdate], metaclass=RepositoryMeta):
    pass
`,
    expected: `@router.get(
    "/{article_id}",
    response_model=ArticleRead,
    status_code=status.HTTP_200_OK,
    summary="Read an article",
)
class ArticleRepository(
    BaseRepository[Article, ArticleCreate, ArticleUpdate], metaclass=RepositoryMeta
):
    pass
`,
  },
  {
    name: "a raise with a long call splits inside the call",
    input: `def f():
    raise HTTPException(status_code=status.HTTP_404_NOT_FOUND, detail=f"Article {pk} not found") from exc
`,
    expected: `def f():
    raise HTTPException(
        status_code=status.HTTP_404_NOT_FOUND, detail=f"Article {pk} not found"
    ) from exc
`,
  },
  {
    name: "assert splits its message first, in parentheses",
    input: `def test_create():
    assert response.status_code == 201, f"unexpected status {response.status_code}: {response.text}"
`,
    expected: `def test_create():
    assert response.status_code == 201, (
        f"unexpected status {response.status_code}: {response.text}"
    )
`,
  },
  {
    name: "a method chain goes fluent inside parentheses",
    input: `async def f():
    query = select(Article).where(Article.id == pk).options(*_READ_OPTIONS).execution_options(populate_existing=True)
`,
    expected: `async def f():
    query = (
        select(Article)
        .where(Article.id == pk)
        .options(*_READ_OPTIONS)
        .execution_options(populate_existing=True)
    )
`,
  },
  {
    name: "a fluent chain that fits inside a call's brackets stays on one line",
    input: `async def f():
    tag = await session.scalar(select(Tag).where(Tag.id == pk).execution_options(populate_existing=True))
`,
    expected: `async def f():
    tag = await session.scalar(
        select(Tag).where(Tag.id == pk).execution_options(populate_existing=True)
    )
`,
  },
  {
    name: "comprehensions split before for and if",
    input: `def f():
    return [to_article_read_comments_nested(comment) for comment in article.comments if comment.visible]
`,
    expected: `def f():
    return [
        to_article_read_comments_nested(comment)
        for comment in article.comments
        if comment.visible
    ]
`,
  },
  {
    name: "a dict comprehension and a conditional argument",
    input: `values = {field_name: getattr(instance, field_name) for field_name in fields if field_name != "id"}
call_something(first_argument_value, keyword_argument=value_one if flag_is_set else value_two_longer_x)
`,
    expected: `values = {
    field_name: getattr(instance, field_name)
    for field_name in fields
    if field_name != "id"
}
call_something(
    first_argument_value,
    keyword_argument=value_one if flag_is_set else value_two_longer_x,
)
`,
  },
  {
    name: "return of a tuple and of a binary expression",
    input: `def f():
    return aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
    return first_operand_with_a_long_name + second_operand_with_a_long_name * third_operand_name
`,
    expected: `def f():
    return (
        aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa,
        bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb,
    )
    return (
        first_operand_with_a_long_name
        + second_operand_with_a_long_name * third_operand_name
    )
`,
  },
  {
    name: "a lambda never splits its parameters; its body splits in parentheses",
    input: `handler = lambda request, response: request.aaaaaaaaaaaaaaaaaaaaaaaa + response.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
`,
    expected: `handler = lambda request, response: (
    request.aaaaaaaaaaaaaaaaaaaaaaaa + response.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
)
`,
  },
  {
    name: "an unsplittable value is parenthesized only if that makes it fit",
    input: `some_dictionary["with_a_long_key"] = some_looooooooong_module.some_looooooooooooooog_function_name
description_of_the_value = "a long string that cannot be split but fits once parenthesized ok"
description_of_the_value = "a string so long that it does not fit even when it is parenthesized on its own line"
`,
    expected: `some_dictionary["with_a_long_key"] = (
    some_looooooooong_module.some_looooooooooooooog_function_name
)
description_of_the_value = (
    "a long string that cannot be split but fits once parenthesized ok"
)
description_of_the_value = "a string so long that it does not fit even when it is parenthesized on its own line"
`,
  },
  {
    name: "del, from-import and global",
    input: `from blog.api.content.schemas.article import ArticleCreate, ArticleRead, ArticleUpdate, ArticlePatch


def f():
    global first_global_name, second_global_name, third_global_name, fourth_global_name_x
    del first_dictionary[first_key], second_dictionary[second_key], third_dictionary[third]
`,
    expected: `from blog.api.content.schemas.article import (
    ArticleCreate,
    ArticleRead,
    ArticleUpdate,
    ArticlePatch,
)


def f():
    global \\
        first_global_name, \\
        second_global_name, \\
        third_global_name, \\
        fourth_global_name_x
    del (
        first_dictionary[first_key],
        second_dictionary[second_key],
        third_dictionary[third],
    )
`,
  },
  {
    name: "compound headers",
    input: `async def f():
    if isinstance(exc, IntegrityError) and exc.orig is not None and exc.orig.sqlstate in _DETAILS:
        pass
    elif some_function_with_a_long_name(first_argument) or another_function_name(second_arg):
        pass
    for index, (name, value) in enumerate(sorted(mapping.items(), key=lambda item: item[0])):
        pass
    async with AsyncSession(engine, expire_on_commit=False) as session, session.begin() as transaction:
        pass
    try:
        pass
    except (IntegrityError, DataError, OperationalError, ProgrammingError, InterfaceError) as exc:
        pass
`,
    expected: `async def f():
    if (
        isinstance(exc, IntegrityError)
        and exc.orig is not None
        and exc.orig.sqlstate in _DETAILS
    ):
        pass
    elif some_function_with_a_long_name(first_argument) or another_function_name(
        second_arg
    ):
        pass
    for index, (name, value) in enumerate(
        sorted(mapping.items(), key=lambda item: item[0])
    ):
        pass
    async with (
        AsyncSession(engine, expire_on_commit=False) as session,
        session.begin() as transaction,
    ):
        pass
    try:
        pass
    except (
        IntegrityError,
        DataError,
        OperationalError,
        ProgrammingError,
        InterfaceError,
    ) as exc:
        pass
`,
  },
  {
    name: "laid-out code is reformatted the way ruff would",
    input: `_READ_OPTIONS = (
    subqueryload(Author.articles),
)
TAGS = [
    "kept",
    "expanded",
]
`,
    expected: `_READ_OPTIONS = (subqueryload(Author.articles),)
TAGS = [
    "kept",
    "expanded",
]
`,
  },
  {
    name: "own-line comments before elements stay on their lines and keep the brackets expanded",
    input: `INDEXES = (
    # GET /authors?order_by=name (either direction), and its keyset pages
    Index("ix_author_name_id", Author.name, Author.id),
    # GET /authors?q=… (a trigram index per field)
    *TrigramSearch(Author.name).indexes("ix_author_search"),
)
TAGS = [
    # c1
    # c2
    first + second, third]
SETTINGS = {
    # keyed
    "a": 1,
    # unpacked
    **defaults,
}
PAIR = (
    # the only element
    a,
)
`,
    expected: `INDEXES = (
    # GET /authors?order_by=name (either direction), and its keyset pages
    Index("ix_author_name_id", Author.name, Author.id),
    # GET /authors?q=… (a trigram index per field)
    *TrigramSearch(Author.name).indexes("ix_author_search"),
)
TAGS = [
    # c1
    # c2
    first + second,
    third,
]
SETTINGS = {
    # keyed
    "a": 1,
    # unpacked
    **defaults,
}
PAIR = (
    # the only element
    a,
)
`,
  },
  {
    name: "own-line comments before call arguments, keywords and unpacked arguments",
    input: `result = await session.execute(select(Author).where(
    # filter by name
    Author.name == name).limit(10))
response = client.post(url,
    # the body
    json=payload, *extra,
    # the rest
    **options)
self.items[0] = build(
    # one argument
    value)
handler = lambda: build(
    # in a lambda body
    value)


class Repository(
    # the base
    Base, metaclass=Meta):
    pass
`,
    expected: `result = await session.execute(
    select(Author)
    .where(
        # filter by name
        Author.name == name
    )
    .limit(10)
)
response = client.post(
    url,
    # the body
    json=payload,
    *extra,
    # the rest
    **options,
)
self.items[0] = build(
    # one argument
    value
)
handler = lambda: build(
    # in a lambda body
    value
)


class Repository(
    # the base
    Base,
    metaclass=Meta,
):
    pass
`,
  },
  {
    name: "comments before the closing bracket follow the last element and its comma",
    input: `ORDER = [first, second,
    # more to come
]
ONLY = [
    only
    # no trailing comma
]
CALL = f(
    a, b,
    # after the arguments
)
ONE = (
    a,
    # after the only element
)
NESTED = {"key": [
        # inner
        1,
    ],
    # outer
}
`,
    expected: `ORDER = [
    first,
    second,
    # more to come
]
ONLY = [
    only
    # no trailing comma
]
CALL = f(
    a,
    b,
    # after the arguments
)
ONE = (
    a,
    # after the only element
)
NESTED = {
    "key": [
        # inner
        1,
    ],
    # outer
}
`,
  },
  {
    name: "comments are written as ruff writes them, blank lines around them dropped",
    input: `VALUES = [
    #no space   
    a,

    #!bang

    b,
    #:colon
    c,
    ##double
    d,
    #'quote
    e,
    #
    f,
    #\ttab
    g,
]
`,
    expected: `VALUES = [
    # no space
    a,
    #!bang
    b,
    #:colon
    c,
    ##double
    d,
    #'quote
    e,
    #
    f,
    # \ttab
    g,
]
`,
  },
  {
    name: "short lines that open a string or a bracket continue onto the next (the line scanner's fast path declines them)",
    input: `doc = """a ( [ { "
" ' # this line inside the string is longer than eighty-eight columns: it is not laid out
"""
empty = ""
marks = call("(", "#", "]", "'", '"', "[{(", [f(g(h(1))), {"k": [2]}],
    "a string element that makes this physical line longer than eighty-eight columns")
`,
    expected: `doc = """a ( [ { "
" ' # this line inside the string is longer than eighty-eight columns: it is not laid out
"""
empty = ""
marks = call(
    "(",
    "#",
    "]",
    "'",
    '"',
    "[{(",
    [f(g(h(1))), {"k": [2]}],
    "a string element that makes this physical line longer than eighty-eight columns",
)
`,
  },
]

describe("formatPython lays out long lines as ruff does", () => {
  it("every expectation in the table is ruff's own output", async () => {
    const formatted = await ruffFormat(CASES.map((c) => c.input));
    CASES.forEach((c, index) => assert.equal(c.expected, formatted[index], c.name));
  });

  for (const c of CASES) {
    it(c.name, () => {
      assert.equal(formatPython(c.input), c.expected);
      assert.equal(formatPython(c.expected), c.expected, "not the identity on ruff's output");
    });
  }
});

const PROSE: Case[] = [
  {
    name: "a one-line docstring too long for the line becomes a paragraph, closing quotes on their own line",
    input: `class Thing:
    """A docstring that is quite long and goes well beyond the eighty-eight column limit of ruff's default."""
`,
    expected: `class Thing:
    """A docstring that is quite long and goes well beyond the eighty-eight column limit
    of ruff's default.
    """
`,
  },
  {
    name: "a long comment continues on comment lines at its indent",
    input: `def method(self) -> None:
    # A comment that is quite long and goes well beyond the eighty-eight column limit of ruff's default.
    return None
`,
    expected: `def method(self) -> None:
    # A comment that is quite long and goes well beyond the eighty-eight column limit of
    # ruff's default.
    return None
`,
  },
  {
    name: "a docstring whose text fits but for its closing quotes takes its last word down with them",
    input: `# A comment before the module docstring, as the generated banner is.
"""Database access. \`\`get_session\`\` and \`\`SessionDep\`\` belong to the default database."""
`,
    expected: `# A comment before the module docstring, as the generated banner is.
"""Database access. \`\`get_session\`\` and \`\`SessionDep\`\` belong to the default
database.
"""
`,
  },
  {
    name: "a single word too long for the line is left as it is",
    input: `# https://example.com/a/very/long/url/that/cannot/be/wrapped/anywhere/at/all/because/it/is/one/word
`,
    expected: `# https://example.com/a/very/long/url/that/cannot/be/wrapped/anywhere/at/all/because/it/is/one/word
`,
  },
];

describe("formatPython wraps prose that ruff leaves too long", () => {
  for (const c of PROSE) {
    it(c.name, () => assert.equal(formatPython(c.input), c.expected));
  }

  it("ruff keeps the wrapped prose as it is, and E501 accepts it", async () => {
    const wrapped = PROSE.slice(0, 3).map((c) => c.expected);
    assert.deepEqual(await ruffFormat(wrapped), wrapped);
    assert.equal(await ruffCheck(wrapped, "E501"), "");
  });

  it("leaves prose alone when asked for ruff's exact output", () => {
    for (const c of PROSE) assert.equal(formatPython(c.input, { wrapProse: false }), c.input);
  });
});

describe("formatPython and lines it cannot lay out", () => {
  it("copies lines that fit without looking at them", () => {
    const source = "x=1  # already short; spacing is the template's business\n";
    assert.equal(formatPython(source), source);
  });

  it("throws, naming the line, for a long line with a comment inside the statement", () => {
    const source = "x = 1\nresult = some_function(first_argument, second_argument, third_argument)  # explain why it is so\n";
    assert.throws(() => formatPython(source), /^Error: formatPython: line 2: cannot lay out a comment inside a statement: result = some_function/);
  });

  it("throws for a comment where it cannot lay one out, never dropping it", () => {
    const sources = [
      "t = (\n    # around a parenthesized expression\n    a\n)\n",
      "x = [a,  # at the end of a line\n    b]\n",
      "x = a[\n    # in a subscript\n    b, c]\n",
      "x = [\n    # in a comprehension\n    a for a in b]\n",
      "x = [\n    # in empty brackets\n]\n",
      "f(\n    # in an empty call\n)\n",
      "def f(\n    # before a parameter\n    a): ...\n",
      "from a import (\n    # before an imported name\n    b)\n",
      "x = {a:\n    # before a dict value\n    b}\n",
      "x = (a +\n    # between operands\n    b)\n",
      "with (\n    # before a with item\n    a, b):\n    pass\n",
      "x = lambda a=[\n    # in a lambda default\n    b]: a\n",
      "x = [\n    #\u00a0after a no-break space\n    a]\n",
    ];
    for (const source of sources) assert.throws(() => formatPython(source), /^Error: formatPython: line 1: cannot lay out a comment/, source);
  });

  it("throws for a long statement outside the supported grammar", () => {
    const source = "def f():\n    yield some_function(first_argument, second_argument, third_argument, fourth_argument)\n";
    assert.throws(() => formatPython(source), /line 2: cannot lay out/);
  });
});
