// An embedder adapter for Mnemo built on transformers.js: all-MiniLM-L6-v2 sentence
// embeddings (384-d, mean-pooled, normalised), computed in the browser. The model downloads
// from the Hugging Face hub on first use, so this needs the network once; the store records
// the model id and refuses vectors from any other model.
//
//   const embed = await transformersEmbedder();
//   const m = await Mnemo.open({ name: 'chat-minilm', storage: 'opfs', embed });

/** Where transformers.js is loaded from when no module is passed in. */
const CDN = 'https://cdn.jsdelivr.net/npm/@huggingface/transformers@3';

export async function transformersEmbedder({ model = 'Xenova/all-MiniLM-L6-v2', transformers } = {}) {
  const { pipeline } = transformers ?? (await import(/* @vite-ignore */ CDN));
  const extract = await pipeline('feature-extraction', model);
  return {
    model: `transformers.js:${model}`,
    dimension: 384,
    async embed(texts) {
      const output = await extract(texts, { pooling: 'mean', normalize: true });
      return output.tolist();
    },
  };
}
