package dev.polite.vendors.github;

/**
 * The JSON bodies api.github.com answers with, cut to the fields github-api reads (it ignores the
 * rest): a repository, a page of repository search results, and the two rate-limit refusals'
 * messages, worded as GitHub words them.
 */
final class GitHubBodies {
  private GitHubBodies() {}

  /** {@code GET /repos/{owner}/{repo}}. */
  static String repository(String fullName) {
    String owner = fullName.substring(0, fullName.indexOf('/'));
    String name = fullName.substring(fullName.indexOf('/') + 1);
    return "{\"id\":1296269,\"node_id\":\"MDEwOlJlcG9zaXRvcnkxMjk2MjY5\",\"name\":\"" + name
        + "\",\"full_name\":\"" + fullName + "\",\"private\":false,"
        + "\"owner\":{\"login\":\"" + owner + "\",\"id\":1,\"node_id\":\"MDQ6VXNlcjE=\","
        + "\"type\":\"User\",\"site_admin\":false},"
        + "\"html_url\":\"https://github.com/" + fullName + "\",\"description\":\"polite's stand-in\","
        + "\"fork\":false,\"url\":\"https://api.github.com/repos/" + fullName + "\","
        + "\"created_at\":\"2011-01-26T19:01:12Z\",\"updated_at\":\"2011-01-26T19:14:43Z\","
        + "\"pushed_at\":\"2011-01-26T19:06:43Z\",\"stargazers_count\":80,\"watchers_count\":80,"
        + "\"forks_count\":9,\"open_issues_count\":0,\"default_branch\":\"main\","
        + "\"visibility\":\"public\"}";
  }

  /** {@code GET /search/repositories?q=…}: one page, no {@code Link} to a next. */
  static String searchResult() {
    return "{\"total_count\":1,\"incomplete_results\":false,\"items\":[" + repository("octo/hello")
        + "]}";
  }

  /** A spent primary limit's 403 (the request id is GitHub's shape, made up). */
  static String primaryLimit(String docs) {
    return "{\"message\":\"API rate limit exceeded for user ID 1. If you reach out to GitHub Support"
        + " for help, please include the request ID C0DE:1234:5678:9ABC:DEF0 and timestamp"
        + " 2026-01-01 00:00:00 UTC.\",\"documentation_url\":\"" + docs + "\",\"status\":\"403\"}";
  }

  /** A secondary limit's 403. */
  static String secondaryLimit() {
    return "{\"message\":\"You have exceeded a secondary rate limit. Please wait a few minutes before"
        + " you try again. If you reach out to GitHub Support for help, please include the request"
        + " ID C0DE:1234:5678:9ABC:DEF0.\",\"documentation_url\":\"https://docs.github.com/free-pro-team"
        + "@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits\","
        + "\"status\":\"403\"}";
  }
}
