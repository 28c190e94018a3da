/**
 * The WebShop vocabulary: the paper's WebShop predicates (clickable
 * buttons, a result matching the non-price constraints, the price
 * constraint, the open item matching, an option matching and an option
 * clicked), the page the shop shows, and its two actions.
 *
 * @module
 */
import type { Vocabulary } from "../../dsl/vocabulary.ts";

/**
 * The vocabulary. Buttons are objects named as the page shows them: a
 * product by its ASIN, an option by its value, the shop's own buttons by
 * their text (`Buy Now`, `< Prev`, `Next >`, `Back to Search`, ...). The
 * predicates take any button (a rule may say `opt_match(b)` of the `b` it
 * clicks); the objects' own types tell products, options and controls apart.
 */
export const webshopVocabulary: Vocabulary = {
  name: "webshop",
  types: {
    Button: { kind: "object", doc: "Something the page lets the shopper click." },
    Product: { kind: "object", parent: "Button", doc: "A product listed on a results page." },
    Option: { kind: "object", parent: "Button", doc: "An option value of the open product." },
    Control: { kind: "object", parent: "Button", doc: "One of the shop's own buttons." },
    Query: { kind: "object", doc: "Words to search for: the instruction." },
  },
  predicates: {
    on_search: { params: [], doc: "The shop shows its search page." },
    on_results: { params: [], doc: "The shop shows a page of search results." },
    on_item: { params: [], doc: "The shop shows a product's page." },
    on_detail: { params: [], doc: "The shop shows a product's description, features or reviews." },
    clickable: { params: ["Button"], doc: "The page offers the button." },
    query: { params: ["Query"], doc: "The words to search the shop for." },
    result: { params: ["Button"], doc: "The results page lists the product." },
    match: {
      params: ["Button"],
      doc: "The listed product's title shares the words of the instruction's product.",
    },
    price_match: { params: ["Button"], doc: "The listed product's price is within the budget." },
    visited: { params: ["Button"], doc: "The product's page was opened before." },
    option: { params: ["Button"], doc: "The open product offers the option value." },
    opt_match: { params: ["Button"], doc: "The instruction asks for the option value." },
    opt_clicked: { params: ["Button"], doc: "The option value was chosen on this product's page." },
    curr_match: {
      params: [],
      doc: "The open product matches the instruction: its title, and every option asked for.",
    },
    curr_price: { params: [], doc: "The open product's price is within the budget." },
    is_buy: { params: ["Button"], doc: "The button buys the open product (`Buy Now`)." },
    is_prev: { params: ["Button"], doc: "The button goes back a page (`< Prev`)." },
    is_next: { params: ["Button"], doc: "The button shows the next results (`Next >`)." },
    is_back: { params: ["Button"], doc: "The button returns to the search page." },
  },
  functions: {},
  actions: {
    search: {
      template: "search[{q}]",
      params: [{ name: "q", type: "Query" }],
      doc: "Search the shop for the words.",
    },
    click: {
      template: "click[{b}]",
      params: [{ name: "b", type: "Button" }],
      doc: "Click a product, an option value or a button of the page.",
    },
  },
};
