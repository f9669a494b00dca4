// The query of one list, in parts its modifiers set: filter fields, order, pagination, the
// resource's search, and fixed conditions. `ListHandler` holds one and renders the handler,
// its schemas and its helpers from the final parts, after every modifier has run.

import type { ImportCollector } from "../../../../codegen/index.js";
import { DEFAULT_PAGINATION, type FilterOperator, type FilterValueKind, type LiteralType, type PaginateConfig, type SearchConfig } from "../../config/schema.js";

/** A filterable field, resolved against the resource. */
export interface FilterField {
  name: string;
  kind: FilterValueKind;
  operators: readonly FilterOperator[];
  /** Python annotation of one value in a query parameter, e.g. `uuid.UUID` or `Status`. */
  annotation: string;
  /** The same in the search's JSON body, which takes only the JSON type its schema names (`DbInt`). */
  bodyAnnotation: string;
  /** What the annotation imports. */
  imports: ImportCollector;
  /** For `literal`: the value type (discovery shows it). */
  literalType?: LiteralType;
  /** For `enum`: the class, as imported. */
  enumClass?: string;
  /** For `ref`: the resource whose key the field holds. */
  refResource?: string;
}

/** A field `order_by` may name. */
export interface OrderField {
  name: string;
  nullable: boolean;
}

/** The declared order of a list: its sortable fields and its default (`-created_at`). */
export interface ListOrder {
  fields: readonly OrderField[];
  /** Signed names of the default order, e.g. `["-created_at"]`; empty for the key alone. */
  default: readonly string[];
}

/** A condition every row of the list must meet: a Python expression over the model. */
export interface ListCondition {
  /** e.g. `Article.deleted_at.is_(None)`; never user text. */
  expression: string;
  imports: ImportCollector;
}

/** The parts of a list's query. Each may be set once; validation rejects a second modifier of a kind. */
export class ListQuery {
  #filters: readonly FilterField[] | undefined;
  #order: ListOrder | undefined;
  #pagination: PaginateConfig | undefined;
  #search: SearchConfig | undefined;
  readonly #conditions: ListCondition[] = [];

  /** The `filter` modifier: query parameters, the search route and discovery. */
  filterBy(fields: readonly FilterField[]): void {
    if (this.#filters !== undefined) throw new Error("bug: a list has one filter modifier");
    this.#filters = fields;
  }

  /** The `order` modifier: `order_by` and the default order. */
  orderBy(order: ListOrder): void {
    if (this.#order !== undefined) throw new Error("bug: a list has one order modifier");
    this.#order = order;
  }

  /** The `paginate` modifier: keyset or offset, and page sizes. */
  paginate(config: PaginateConfig): void {
    if (this.#pagination !== undefined) throw new Error("bug: a list has one paginate modifier");
    this.#pagination = config;
  }

  /** The resource's search (`?q=`). */
  searchWith(search: SearchConfig): void {
    this.#search = search;
  }

  /**
   * A condition every row must meet (`WHERE`), after the filters: the extension point of
   * modifiers from other packages, and of row visibility.
   */
  where(condition: ListCondition): void {
    this.#conditions.push(condition);
  }

  get filters(): readonly FilterField[] | undefined {
    return this.#filters;
  }

  get order(): ListOrder | undefined {
    return this.#order;
  }

  get pagination(): PaginateConfig {
    return this.#pagination ?? DEFAULT_PAGINATION;
  }

  get search(): SearchConfig | undefined {
    return this.#search;
  }

  get conditions(): readonly ListCondition[] {
    return this.#conditions;
  }
}
