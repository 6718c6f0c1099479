// The `idb` storage's persistence: one IndexedDB database ("mnemo") whose object store holds
// each store's whole SQLite image under its name. Written after every call that can change
// the store, so a reload finds what the last call committed.

const DB = 'mnemo';
const STORE = 'images';

function open() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function run(mode, body) {
  return open().then(
    (db) =>
      new Promise((resolve, reject) => {
        const tx = db.transaction(STORE, mode);
        const req = body(tx.objectStore(STORE));
        tx.oncomplete = () => {
          db.close();
          resolve(req.result);
        };
        tx.onerror = tx.onabort = () => {
          db.close();
          reject(tx.error ?? req.error);
        };
      }),
  );
}

/** The saved image of store `name`, or undefined. */
export const load = (name) => run('readonly', (s) => s.get(name));

/** Saves the image of store `name` (the write is durable when the promise resolves). */
export const save = (name, bytes) => run('readwrite', (s) => s.put(bytes, name));
