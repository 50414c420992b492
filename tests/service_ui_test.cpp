// GET / and /ui/<file>: the web page's files are served from the binary byte for byte as they
// are in service/ui/, each with the Content-Security-Policy, nosniff and an ETag of its bytes;
// If-None-Match gives 304; --no-ui (ServiceConfig::ui = false) turns every page route into 404.
// The page itself is tested in a browser (tests/webui/test_webui.py).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "service_support.hpp"

namespace tgservice {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const fs::path kUiDir = fs::path(TG_SOURCE_DIR) / "service" / "ui";

constexpr std::string_view kCsp =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'; "
    "require-trusted-types-for 'script'; trusted-types 'none'";

void expect_page_headers(const HttpResponse& r) {
  EXPECT_EQ(r.header("content-security-policy"), kCsp);
  EXPECT_EQ(r.header("x-content-type-options"), "nosniff");
  EXPECT_EQ(r.header("x-frame-options"), "DENY");
  EXPECT_EQ(r.header("referrer-policy"), "no-referrer");
  EXPECT_EQ(r.header("cache-control"), "no-cache");
  const std::string etag = r.header("etag");
  ASSERT_EQ(etag.size(), 34u) << etag;
  EXPECT_EQ(etag.front(), '"');
  EXPECT_EQ(etag.back(), '"');
  EXPECT_EQ(etag.find_first_not_of("0123456789abcdef", 1), 33u) << etag;
}

TEST(ServiceUi, RootServesTheEmbeddedIndex) {
  TestServer s;
  const HttpResponse r = get(s.port(), "/");
  ASSERT_EQ(r.status, 200u);
  EXPECT_EQ(r.header("content-type"), "text/html; charset=utf-8");
  EXPECT_TRUE(r.body == read_file(kUiDir / "index.html"));
  expect_page_headers(r);
  // The page holds no inline script or style and loads nothing from elsewhere.
  EXPECT_EQ(r.body.find("<script>"), std::string::npos);
  EXPECT_EQ(r.body.find("style="), std::string::npos);
  EXPECT_EQ(r.body.find("http://"), std::string::npos);
  EXPECT_EQ(r.body.find("https://"), std::string::npos);
}

TEST(ServiceUi, EveryFileOfTheFolderIsServedAsItIs) {
  TestServer s;
  const std::map<std::string, std::string> types = {{".html", "text/html; charset=utf-8"},
                                                    {".js", "text/javascript; charset=utf-8"},
                                                    {".css", "text/css; charset=utf-8"},
                                                    {".svg", "image/svg+xml"}};
  int files = 0;
  for (const auto& entry : fs::directory_iterator(kUiDir)) {
    const std::string name = entry.path().filename().string();
    const HttpResponse r = get(s.port(), "/ui/" + name);
    ASSERT_EQ(r.status, 200u) << name;
    const std::string bytes = read_file(entry.path());
    EXPECT_TRUE(r.body == bytes) << name << ": served " << r.body.size() << " bytes, the file has " << bytes.size()
                                 << " (a stale embedding?)";
    ASSERT_TRUE(types.count(entry.path().extension().string())) << name << ": a type the server does not name";
    EXPECT_EQ(r.header("content-type"), types.at(entry.path().extension().string())) << name;
    expect_page_headers(r);
    ++files;
  }
  EXPECT_GE(files, 4);
}

TEST(ServiceUi, IfNoneMatchGivesNotModified) {
  TestServer s;
  const std::string etag = get(s.port(), "/ui/style.css").header("etag");
  for (const std::string& field : {etag, "W/" + etag, "\"other\", " + etag, std::string("*")}) {
    const HttpResponse r = request(s.port(), "GET", "/ui/style.css", {}, {"If-None-Match: " + field});
    EXPECT_EQ(r.status, 304u) << field;
    EXPECT_EQ(r.body, "");
    EXPECT_EQ(r.header("content-length"), "");
    EXPECT_EQ(r.header("etag"), etag);
    EXPECT_EQ(r.header("content-security-policy"), kCsp);
  }
  const HttpResponse other = request(s.port(), "GET", "/ui/style.css", {}, {"If-None-Match: \"0123\""});
  EXPECT_EQ(other.status, 200u);
  // Each file has its own tag.
  EXPECT_NE(get(s.port(), "/ui/main.js").header("etag"), etag);
}

TEST(ServiceUi, NamesThePageDoesNotHaveAreNotFound) {
  TestServer s;
  for (const char* target : {"/ui/", "/ui/nope.js", "/ui/../docs/openapi.json", "/ui/%2e%2e/index.html", "/ui//index.html",
                             "/index.html", "/ui/index.html/"}) {
    const HttpResponse r = get(s.port(), target);
    EXPECT_EQ(r.status, 404u) << target;
    EXPECT_EQ(r.code(), "not-found") << target;
  }
  const HttpResponse post = request(s.port(), "POST", "/", "x");
  EXPECT_EQ(post.status, 405u);
  EXPECT_EQ(post.header("allow"), "GET, HEAD");
}

TEST(ServiceUi, NoUiTurnsThePageOff) {
  ServiceConfig c = test_config();
  c.ui = false;
  TestServer s(c);
  for (const char* target : {"/", "/ui/main.js", "/ui/style.css"}) {
    const HttpResponse r = get(s.port(), target);
    EXPECT_EQ(r.status, 404u) << target;
    EXPECT_EQ(r.code(), "not-found");
    EXPECT_EQ(r.header("content-security-policy"), "");
  }
  EXPECT_EQ(get(s.port(), "/livez").status, 200u);  // the API stays
}

TEST(ServiceUi, PageRequestsAreCountedUnderOneRoute) {
  TestServer s;
  get(s.port(), "/");
  get(s.port(), "/ui/main.js");
  get(s.port(), "/ui/nope.js");
  EXPECT_EQ(wait_for_metric(s.port(), "tensorgate_http_requests_total{route=\"/\",code=\"200\"}", 2), 2);
  EXPECT_EQ(wait_for_metric(s.port(), "tensorgate_http_requests_total{route=\"/\",code=\"404\"}", 1), 1);
}

}  // namespace
}  // namespace tgservice
