/**
 * Binary objects (profile pictures, encrypted attachment chunks). Keys are slash-separated paths
 * such as `avatars/01J....png`; a folder is a prefix ending in `/`.
 */
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
  /** Every key under a folder (`prefix` ends in `/`), at any depth, in no particular order. */
  list(prefix: string): Promise<string[]>;
  /** Deletes every key under a folder (`prefix` ends in `/`); an empty folder is fine. */
  deleteFolder(prefix: string): Promise<void>;
  close(): Promise<void>;
}
