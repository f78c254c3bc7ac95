// The player's words in the reader's language: each English message the scripts mark
// (_('Undo'), ngettext(one, many, n), pgettext(context, message)) is looked up in the
// catalogue the site builder put in the puzzle's JSON ("catalogue": the same .po file print
// uses, made by nonopress/app/words.py); there is no second set of strings here. A message
// the catalogue lacks (or a puzzle without one: English) shows as written. {name}
// placeholders are filled after the lookup, so a sentence is translated whole.
'use strict';
(function () {
  /**
   * @typedef {import('./puzzle').Catalogue} Catalogue
   * @typedef {import('./puzzle').Words} Words
   */

  /**
   * A gettext plural expression of n ("n != 1", Polish's "(n==1 ? 0 : n%10>=2 && ...)")
   * read without eval: a small parser of C's integer operators. Null when it does not parse.
   * @returns {((n: number) => number) | null}
   */
  function pluralRule(text) {
    const tokens = String(text).match(/n|\d+|[=!<>]=|&&|\|\||[-+*/%<>!?:()]/g) || [];
    if (tokens.join('') !== String(text).replace(/\s+/g, '') || tokens.length > 200) return null;
    let at = 0;
    const peek = () => tokens[at];
    /** @type {Record<string, (a: number, b: number) => number>} */
    const ops = {
      '||': (a, b) => +(a || b), '&&': (a, b) => +(a && b), '==': (a, b) => +(a === b),
      '!=': (a, b) => +(a !== b), '<': (a, b) => +(a < b), '<=': (a, b) => +(a <= b),
      '>': (a, b) => +(a > b), '>=': (a, b) => +(a >= b), '+': (a, b) => a + b,
      '-': (a, b) => a - b, '*': (a, b) => a * b, '/': (a, b) => (b ? Math.trunc(a / b) : 0),
      '%': (a, b) => (b ? a % b : 0),
    };
    const levels = [['||'], ['&&'], ['==', '!='], ['<', '<=', '>', '>='], ['+', '-'], ['*', '/', '%']];
    /** @returns {(n: number) => number} */
    function binary(level) {
      if (level === levels.length) return unary();
      let left = binary(level + 1);
      while (levels[level].includes(peek())) {
        const op = ops[tokens[at++]], a = left, b = binary(level + 1);
        left = (n) => op(a(n), b(n));
      }
      return left;
    }
    /** @returns {(n: number) => number} */
    function unary() {
      const token = tokens[at++];
      if (token === '!') { const a = unary(); return (n) => +!a(n); }
      if (token === 'n') return (n) => n;
      if (token === '(') {
        const inner = ternary();
        if (tokens[at++] !== ')') throw new Error('plural: )');
        return inner;
      }
      if (/^\d+$/.test(token || '')) { const v = Number(token); return () => v; }
      throw new Error('plural: a value');
    }
    /** @returns {(n: number) => number} */
    function ternary() {
      const test = binary(0);
      if (peek() !== '?') return test;
      at++;
      const yes = ternary();
      if (tokens[at++] !== ':') throw new Error('plural: :');
      const no = ternary();
      return (n) => (test(n) ? yes(n) : no(n));
    }
    try {
      const rule = ternary();
      return at === tokens.length ? rule : null;
    } catch (e) {
      return null;
    }
  }

  /**
   * The words of one puzzle: its catalogue (checked by the shell), or English without one.
   * @param {Catalogue | undefined} catalogue
   * @returns {Words}
   */
  function words(catalogue) {
    const messages = (catalogue && catalogue.messages) || {};
    const rule = (catalogue && pluralRule(catalogue.plural)) || ((n) => +(n !== 1));
    const language = (catalogue && catalogue.language) || 'en';
    const number = new Intl.NumberFormat(language === 'en-XA' ? 'en' : language, {maximumFractionDigits: 1, useGrouping: false});
    const fill = (text, values) => (values ? text.replace(/\{(\w+)\}/g, (whole, name) => (
      name in values ? (typeof values[name] === 'number' ? number.format(values[name]) : String(values[name])) : whole)) : text);
    const look = (key, english) => {
      const text = Object.prototype.hasOwnProperty.call(messages, key) ? messages[key] : null;
      return typeof text === 'string' && text ? text : english;
    };
    return {
      language,
      _: (message, values) => fill(look(message, message), values),
      pgettext: (context, message, values) => fill(look(`${context}\u0004${message}`, message), values),
      ngettext: (one, many, count, values) => {
        const forms = Object.prototype.hasOwnProperty.call(messages, one) ? messages[one] : null;
        const form = Array.isArray(forms) ? forms[rule(count)] : null;
        const text = typeof form === 'string' && form ? form : (count === 1 ? one : many);
        return fill(text, Object.assign({count}, values || {}));
      },
      number: (value) => number.format(value),
    };
  }

  globalThis.NonopressWords = {words, pluralRule};
})();
