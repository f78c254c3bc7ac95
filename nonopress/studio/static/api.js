// The page's one door to the server: JSON in, JSON out, errors as exceptions with a message.
const token = document.querySelector('meta[name="studio-token"]').content;

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

async function answer(response) {
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || `HTTP ${response.status}`);
  }
  return data;
}

export async function post(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: {'Content-Type': 'application/json', 'X-Studio-Token': token},
    body: JSON.stringify(body),
  });
  return answer(response);
}

export async function get(path, params = {}) {
  const query = new URLSearchParams(params).toString();
  // the token here too: a GET may start a solve, and the server asks who sent it
  return answer(await fetch(query ? `${path}?${query}` : path,
                            {headers: {'X-Studio-Token': token}}));
}
