import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { ValueError } from "../../src/codegen/errors.js";
import { Name, prefixImport } from "../../src/codegen/naming.js";

describe("Name.pascal", () => {
  it("returns a raw value with no underscore and a leading capital as it is", () => {
    assert.equal(new Name("StockMovement").pascal, "StockMovement");
    assert.equal(new Name("HTTPServer").pascal, "HTTPServer");
  });

  it("capitalises each snake_case word", () => {
    assert.equal(new Name("stock_movement").pascal, "StockMovement");
    assert.equal(new Name("publish_article").pascal, "PublishArticle");
  });

  it("capitalises a single lowercase word or a camelCase value", () => {
    assert.equal(new Name("author").pascal, "Author");
    assert.equal(new Name("stockMovement").pascal, "StockMovement");
  });
});

describe("Name.snake", () => {
  it("splits PascalCase words", () => {
    assert.equal(new Name("StockMovement").snake, "stock_movement");
    assert.equal(new Name("Author").snake, "author");
  });

  it("keeps an acronym run as one word", () => {
    assert.equal(new Name("HTTPServer").snake, "http_server");
    assert.equal(new Name("APIKey").snake, "api_key");
    assert.equal(new Name("UserAPI").snake, "user_api");
  });

  it("starts a new word after a digit", () => {
    assert.equal(new Name("Article2Tag").snake, "article2_tag");
  });

  it("only lowercases a value that already contains underscores", () => {
    assert.equal(new Name("stock_movement").snake, "stock_movement");
    assert.equal(new Name("Publish_ArticleNow").snake, "publish_articlenow");
  });
});

describe("Name.slug", () => {
  it("is the hyphenated snake form", () => {
    assert.equal(new Name("publish_article").slug, "publish-article");
    assert.equal(new Name("PublishArticle").slug, "publish-article");
    assert.equal(new Name("HTTPServer").slug, "http-server");
  });
});

describe("Name.lower", () => {
  it("lowercases fully without separators, whichever way the name was written", () => {
    assert.equal(new Name("StockMovement").lower, "stockmovement");
    assert.equal(new Name("stock_movement").lower, "stockmovement");
  });
});

describe("Name.suffixed and toString", () => {
  it("appends the suffix to the PascalCase form", () => {
    assert.equal(new Name("article").suffixed("Create"), "ArticleCreate");
    assert.equal(new Name("StockMovement").suffixed("Read"), "StockMovementRead");
  });

  it("interpolates as the raw value", () => {
    const name = new Name("stock_movement");
    assert.equal(name.raw, "stock_movement");
    assert.equal(`${name}`, "stock_movement");
  });
});

describe("Name.fromDotted", () => {
  it("splits the module path from the last segment", () => {
    const [module, name] = Name.fromDotted("blog.models.Author");
    assert.equal(module, "blog.models");
    assert.ok(name instanceof Name);
    assert.equal(name.raw, "Author");
  });

  it("keeps a relative module path", () => {
    assert.deepEqual(Name.fromDotted(".models.Author")[0], ".models");
  });

  for (const path of ["Author", ".Author", "blog.", ""]) {
    it(`raises ValueError naming the path for ${JSON.stringify(path)}`, () => {
      assert.throws(
        () => Name.fromDotted(path),
        (error: unknown) => error instanceof ValueError && error.message.includes(`"${path}"`),
      );
    });
  }
});

describe("Name.parentPath", () => {
  it("drops the last segment by default", () => {
    assert.equal(Name.parentPath("blog.models.Author"), "blog.models");
  });

  it("drops the given number of segments", () => {
    assert.equal(Name.parentPath("blog.models.Author", { levels: 2 }), "blog");
    assert.equal(Name.parentPath("blog.models.Author", { levels: 0 }), "blog.models.Author");
  });

  it("returns what remains when segments run out", () => {
    assert.equal(Name.parentPath("Author"), "");
    assert.equal(Name.parentPath("blog.models", { levels: 5 }), "");
    assert.equal(Name.parentPath(""), "");
  });

  it("rejects a negative or fractional level count", () => {
    assert.throws(() => Name.parentPath("a.b", { levels: -1 }), ValueError);
    assert.throws(() => Name.parentPath("a.b", { levels: 1.5 }), ValueError);
  });
});

describe("prefixImport", () => {
  it("puts a non-empty prefix first", () => {
    assert.equal(prefixImport("myproj", "blog", "models"), "myproj.blog.models");
  });

  it("leaves out an empty prefix and empty parts", () => {
    assert.equal(prefixImport("", "blog", "models"), "blog.models");
    assert.equal(prefixImport("myproj", "", "db"), "myproj.db");
    assert.equal(prefixImport(""), "");
  });
});
