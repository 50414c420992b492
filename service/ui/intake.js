// Where files come in: the drop zone (a file, several files or a folder), the file picker and
// the folder picker. One file opens the single-file view; a folder or several files open the
// repository view. Folders are walked with an explicit stack, bounded in depth and count.

const MAX_FILES = 10000;
const MAX_DEPTH = 16;

// "model/sub/x.json" -> "sub/x.json": paths are relative to the folder that was chosen.
function withinFolder(path) {
  const parts = String(path).replace(/^\/+/, '').split('/');
  return {folder: parts.length > 1 ? parts[0] : '', path: parts.length > 1 ? parts.slice(1).join('/') : parts[0]};
}

function fileOf(entry) {
  return new Promise((resolve) => entry.file(resolve, () => resolve(null)));
}

function readAll(reader) {
  // readEntries answers in batches until it answers none.
  return new Promise((resolve) => {
    const out = [];
    const next = () => reader.readEntries((batch) => {
      if (!batch.length) return resolve(out);
      out.push(...batch);
      next();
    }, () => resolve(out));
    next();
  });
}

// Files under dropped entries (FileSystemEntry), with their paths; no recursion.
async function walk(entries) {
  const out = [];
  const stack = entries.map((e) => [e, 0]);
  let truncated = false;
  while (stack.length) {
    const [entry, depth] = stack.pop();
    if (out.length >= MAX_FILES) {
      truncated = true;
      break;
    }
    if (entry.isFile) {
      const file = await fileOf(entry);
      if (file) out.push({file, fullPath: entry.fullPath || file.name});
    } else if (entry.isDirectory && depth < MAX_DEPTH) {
      for (const child of await readAll(entry.createReader())) stack.push([child, depth + 1]);
    } else if (entry.isDirectory) {
      truncated = true;
    }
  }
  return {out, truncated};
}

async function fromDrop(dataTransfer) {
  const items = [...(dataTransfer.items || [])].filter((i) => i.kind === 'file');
  const entries = items.map((i) => (i.webkitGetAsEntry ? i.webkitGetAsEntry() : null));
  if (entries.length && entries.every(Boolean) && entries.some((e) => e.isDirectory)) {
    const {out, truncated} = await walk(entries);
    const folderEntry = entries.length === 1 && entries[0].isDirectory ? entries[0] : null;
    const files = out.map(({file, fullPath}) => ({file, path: folderEntry ? withinFolder(fullPath).path : String(fullPath).replace(/^\/+/, '')}));
    return {files, folder: folderEntry ? folderEntry.name : '', repository: true, truncated};
  }
  const files = [...(dataTransfer.files || [])].map((file) => ({file, path: file.name}));
  return {files, folder: '', repository: files.length > 1, truncated: false};
}

function fromFolderInput(input) {
  const list = [...input.files].slice(0, MAX_FILES);
  let folder = '';
  const files = list.map((file) => {
    const p = withinFolder(file.webkitRelativePath || file.name);
    folder = folder || p.folder;
    return {file, path: p.path};
  });
  return {files, folder, repository: true, truncated: input.files.length > MAX_FILES};
}

// onFiles({files: [{file, path}], folder, repository, truncated}) for every way in.
export function setupIntake({zone, fileInput, folderInput, onFiles}) {
  let depth = 0;
  const busy = () => document.body.dataset.busy === 'true';
  zone.addEventListener('dragenter', (e) => {
    e.preventDefault();
    depth += 1;
    zone.classList.add('over');
  });
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = busy() ? 'none' : 'copy';
  });
  zone.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) zone.classList.remove('over');
  });
  zone.addEventListener('drop', async (e) => {
    e.preventDefault();
    depth = 0;
    zone.classList.remove('over');
    if (busy() || !e.dataTransfer) return;
    const got = await fromDrop(e.dataTransfer);
    if (got.files.length) onFiles(got);
  });
  // A file dropped next to the zone must not navigate away from the page.
  for (const type of ['dragover', 'drop']) window.addEventListener(type, (e) => e.preventDefault());

  fileInput.addEventListener('change', () => {
    const files = [...fileInput.files].map((file) => ({file, path: file.name}));
    fileInput.value = '';
    if (files.length) onFiles({files, folder: '', repository: files.length > 1, truncated: false});
  });
  folderInput.addEventListener('change', () => {
    const got = fromFolderInput(folderInput);
    folderInput.value = '';
    if (got.files.length) onFiles(got);
  });
}
