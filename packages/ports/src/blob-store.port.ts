/** Binary objects (profile pictures). Keys are slash-separated paths such as `avatars/01J....png`. */
export interface StoredBlob {
  bytes: Uint8Array;
  contentType: string;
}

export interface BlobStore {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Resolves null when the key does not exist. */
  get(key: string): Promise<StoredBlob | null>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}
