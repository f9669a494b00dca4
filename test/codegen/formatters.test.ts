import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { ImportCollector } from "../../src/codegen/imports.js";
import { pythonImports } from "../../src/formatters/python.js";
import { typescriptImports } from "../../src/formatters/typescript.js";

describe("pythonImports", () => {
  it("writes isort's sections in order, one blank line apart", () => {
    const imports = new ImportCollector()
      .addFrom("..db", "get_session")
      .addFrom(".schemas", "AuthorRead")
      .addFrom("blog.models", "Author")
      .addFrom("sqlalchemy.ext.asyncio", "AsyncSession")
      .add("sqlalchemy")
      .addFrom("fastapi", "status", "Depends", "APIRouter")
      .addFrom("typing", "cast", "Any", "TYPE_CHECKING", "Annotated")
      .add("uuid")
      .add("datetime")
      .addFrom("__future__", "annotations");
    assert.equal(
      pythonImports(imports, { firstParty: ["blog"] }),
      [
        "from __future__ import annotations",
        "",
        "import datetime",
        "import uuid",
        "from typing import TYPE_CHECKING, Annotated, Any, cast",
        "",
        "import sqlalchemy",
        "from fastapi import APIRouter, Depends, status",
        "from sqlalchemy.ext.asyncio import AsyncSession",
        "",
        "from blog.models import Author",
        "",
        "from ..db import get_session",
        "from .schemas import AuthorRead",
      ].join("\n"),
    );
  });

  it("treats modules outside firstParty as third-party, matching whole package names", () => {
    const imports = new ImportCollector().add("blogger").add("blog").addFrom("blog.api.routes", "router");
    assert.equal(pythonImports(imports, { firstParty: ["blog"] }), "import blogger\n\nimport blog\nfrom blog.api.routes import router");
    assert.equal(pythonImports(imports, {}), "import blog\nimport blogger\nfrom blog.api.routes import router");
  });

  it("knows the standard library, private modules included", () => {
    const imports = new ImportCollector()
      .add("pydantic")
      .add("_thread")
      .addFrom("collections.abc", "Sequence")
      .addFrom("pathlib", "Path")
      .add("logging");
    assert.equal(
      pythonImports(imports, {}),
      "import _thread\nimport logging\nfrom collections.abc import Sequence\nfrom pathlib import Path\n\nimport pydantic",
    );
  });

  it("orders modules ignoring case and with numbers compared as numbers", () => {
    const imports = new ImportCollector().add("lib10").add("Zlibx").add("lib2").add("attrs");
    assert.equal(pythonImports(imports, {}), "import attrs\nimport lib2\nimport lib10\nimport Zlibx");
  });

  it("orders imported names: star, constants, classes, then functions", () => {
    const imports = new ImportCollector().addFrom("pkg", "helper", "Model", "MAX_SIZE", "*", "A", "b_value");
    assert.equal(pythonImports(imports, {}), "from pkg import *, MAX_SIZE, A, Model, b_value, helper");
  });

  it("writes each aliased name in a statement of its own, ordered as ruff's isort orders them", () => {
    const imports = new ImportCollector().addFrom("blog.models", "Zed", "Tag as TagModel", "Tag", "Page as PageModel", "Author as AuthorModel");
    assert.equal(
      pythonImports(imports, {}),
      [
        "from blog.models import Author as AuthorModel",
        "from blog.models import Page as PageModel",
        "from blog.models import Tag, Zed",
        "from blog.models import Tag as TagModel",
      ].join("\n"),
    );
  });

  it("keeps an 88-character from-import on one line and wraps a longer one", () => {
    const fits = new ImportCollector().addFrom("m", "x".repeat(74));
    assert.equal(pythonImports(fits, {}), `from m import ${"x".repeat(74)}`);
    assert.equal(pythonImports(fits, {}).length, 88);

    const names = ["ArticleCreate", "ArticleRead", "ArticleUpdate", "ArticleListItem", "ArticleAuthorNested"];
    const long = new ImportCollector().addFrom("blog.schemas.article", ...names);
    assert.equal(
      pythonImports(long, {}),
      [
        "from blog.schemas.article import (",
        "    ArticleAuthorNested,",
        "    ArticleCreate,",
        "    ArticleListItem,",
        "    ArticleRead,",
        "    ArticleUpdate,",
        ")",
      ].join("\n"),
    );
  });

  it("gives an empty string for no imports and never a trailing newline", () => {
    assert.equal(pythonImports(new ImportCollector(), {}), "");
    assert.ok(!pythonImports(new ImportCollector().add("os"), {}).endsWith("\n"));
  });
});

describe("typescriptImports", () => {
  it("writes side-effect and named imports, packages first, relative modules last", () => {
    const imports = new ImportCollector()
      .addFrom("./client.js", "api")
      .add("./styles.css")
      .addFrom("react", "useState", "useEffect")
      .addFrom("@tanstack/react-query", "useQuery")
      .addFrom("../types.js", "type Article", "ArticleSchema")
      .add("reflect-metadata");
    assert.equal(
      typescriptImports(imports, {}),
      [
        'import { useQuery } from "@tanstack/react-query";',
        'import { useEffect, useState } from "react";',
        'import "reflect-metadata";',
        'import { type Article, ArticleSchema } from "../types.js";',
        'import { api } from "./client.js";',
        'import "./styles.css";',
      ].join("\n"),
    );
  });

  it("drops a side-effect import of a module also imported by name", () => {
    const imports = new ImportCollector().add("zod").addFrom("zod", "z");
    assert.equal(typescriptImports(imports, {}), 'import { z } from "zod";');
  });

  it("gives an empty string for no imports", () => {
    assert.equal(typescriptImports(new ImportCollector(), {}), "");
  });
});
