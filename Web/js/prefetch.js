// A classic script run before the modules load: starts the API request of the view named in the
// URL (#/runs/{id}, #/results/{id}) so the data and the modules arrive in parallel. api.js takes
// the response over when it asks for the same path; nothing else reads it.
(function () {
  var match = /^#\/(runs|results)\/([^/?#]+)/.exec(location.hash);
  if (!match || !window.fetch) return;
  var id;
  try { id = decodeURIComponent(match[2]); } catch (e) { return; }
  // A run view asks for its failing results first (api.js FAILING_STATUSES).
  var path = '/api/v1/' + match[1] + '/' + encodeURIComponent(id) + (match[1] === 'runs' ? '?status=failed%2Cerror' : '');
  var headers = { Accept: 'application/json' };
  try {
    var token = localStorage.getItem('failscope.readToken');
    if (token) headers.Authorization = 'Bearer ' + token;
  } catch (e) { /* storage disabled */ }
  var response = fetch(path, { headers: headers, credentials: 'same-origin' });
  response.catch(function () { /* handled by the view when it takes the response over */ });
  window.__failscopePrefetch = { path: path, response: response };
})();
