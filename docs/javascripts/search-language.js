// Search follows the page's language.
//
// mkdocs-static-i18n builds one search index for the whole site, English and Russian pages
// together (Russian ones under "ru/"), so a search on a Russian page lists English pages too,
// often first. Material hands the index to its search worker in a "setup" message (type 0)
// when the search is first opened; this keeps only the entries of the page's own language.
(function () {
  var lang = document.documentElement.lang || "en";
  var prefixes = ["ru/"]; // every non-default language, as the i18n plugin lays the site out
  var own = prefixes.filter(function (p) { return p === lang + "/"; })[0];

  function keep(doc) {
    var loc = doc.location || "";
    var other = prefixes.some(function (p) { return loc.indexOf(p) === 0; });
    return own ? loc.indexOf(own) === 0 : !other;
  }

  var post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message) {
    if (message && message.type === 0 && message.data && Array.isArray(message.data.docs)) {
      var data = Object.assign({}, message.data, { docs: message.data.docs.filter(keep) });
      if (own && data.config) {
        data.config = Object.assign({}, data.config, { lang: [lang] });
      }
      arguments[0] = Object.assign({}, message, { data: data });
    }
    return post.apply(this, arguments);
  };
})();
