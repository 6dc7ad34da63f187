// Imported first by render-thread.mjs: whether the thread already loads TypeScript.
export const typescript: boolean = true;
