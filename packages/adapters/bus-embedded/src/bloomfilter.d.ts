/** The part of the `bloomfilter` package (plain JavaScript) the event log uses. */
declare module 'bloomfilter' {
  export class BloomFilter {
    /** `bits` rounded up to a multiple of 32, `hashes` hash functions. */
    constructor(bits: number, hashes: number);
    add(value: string): void;
    test(value: string): boolean;
  }
}
