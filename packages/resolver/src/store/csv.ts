/**
 * An incremental reader of CSV records (RFC 4180 §2: fields separated by
 * ",", a field in double quotes may hold commas, quotes doubled, and line
 * breaks), fed chunk by chunk, one pass over the characters.
 */

/**
 * One CSV record (RFC 4180 §2) and the line it starts on (1-based).
 *
 * @example
 * ```ts
 * const reader = new CsvReader();
 * reader.push('urn,meta\r\nurn:ex:a,"two\r\nlines"\r\nurn:ex:b,x\r\n');
 * const records: CsvRecord[] = reader.take();
 * records.map((r) => r.line); // [1, 2, 4]
 * ```
 */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * Reads CSV records from text given in pieces.
 *
 * @example
 * ```ts
 * const r = new CsvReader(); r.push('urn,url\r\n"urn:ex:a","http://a/"\r\n'); r.end(); r.take()
 * // [{ line: 1, fields: ['urn', 'url'] }, { line: 2, fields: ['urn:ex:a', 'http://a/'] }]
 * ```
 */
export class CsvReader {
  #records: CsvRecord[] = [];
  #fields: string[] = [];
  #field = '';
  #quoted = false;
  #afterQuote = false;
  #pendingCr = false;
  #line = 1;
  #recordLine = 1;
  #fieldStarted = false;

  /** Feeds the next piece of text; throws an Error naming the line on a stray quote. */
  push(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.#pendingCr) {
        this.#pendingCr = false;
        if (c === 0x0a) continue;
      }
      if (this.#quoted) {
        if (c === 0x22) { this.#quoted = false; this.#afterQuote = true; continue; }
        if (c === 0x0a) this.#line++;
        this.#field += text[i];
        continue;
      }
      if (c === 0x22) {
        if (this.#afterQuote) { this.#field += '"'; this.#quoted = true; this.#afterQuote = false; continue; }
        if (this.#field.length > 0) throw new Error(`line ${this.#line}: a quote inside an unquoted field (RFC 4180 §2 rule 5)`);
        this.#quoted = true;
        this.#fieldStarted = true;
        continue;
      }
      if (c === 0x2c) { this.#endField(); continue; }
      if (c === 0x0d || c === 0x0a) {
        this.#endRecord();
        this.#line++;
        this.#recordLine = this.#line;
        if (c === 0x0d) this.#pendingCr = true;
        continue;
      }
      if (this.#afterQuote) throw new Error(`line ${this.#line}: text after a closing quote (RFC 4180 §2 rule 6)`);
      this.#field += text[i];
      this.#fieldStarted = true;
    }
  }

  #endField(): void {
    this.#fields.push(this.#field);
    this.#field = '';
    this.#afterQuote = false;
    this.#fieldStarted = true;
  }

  #endRecord(): void {
    if (!this.#fieldStarted && this.#fields.length === 0) return; // a blank line
    this.#endField();
    this.#records.push({ line: this.#recordLine, fields: this.#fields });
    this.#fields = [];
    this.#fieldStarted = false;
  }

  /** Ends the input; throws if a quoted field is still open. */
  end(): void {
    if (this.#quoted) throw new Error(`line ${this.#recordLine}: a quoted field is not closed`);
    this.#endRecord();
  }

  /** The records completed so far (and forgets them). */
  take(): CsvRecord[] {
    const r = this.#records;
    this.#records = [];
    return r;
  }
}
