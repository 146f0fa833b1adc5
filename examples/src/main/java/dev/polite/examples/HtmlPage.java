package dev.polite.examples;

/**
 * What the examples' HTML pages share: the head with the house style (system font, muted notes,
 * plain tables), escaping, and numbers without a needless {@code .0}. Each page is one
 * self-contained file: inline CSS and SVG, no script, nothing fetched.
 *
 * <p>Usage: {@code StringBuilder html = HtmlPage.begin("polite: the zoo", 1100, ".cell{...}"); ...; html.append(HtmlPage.END);}
 */
public final class HtmlPage {
  /** Closes what {@link #begin} opened. */
  public static final String END = "</body>\n</html>\n";

  private HtmlPage() {}

  /**
   * The page up to and including {@code <body>}.
   *
   * @param title the window's title (escaped here)
   * @param maxWidth the body's width in pixels
   * @param css the page's own rules, after the shared ones
   */
  public static StringBuilder begin(String title, int maxWidth, String css) {
    StringBuilder html = new StringBuilder(64 * 1024);
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>").append(escape(title)).append("</title>\n<style>\n")
        .append("body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#212121;")
        .append("max-width:").append(maxWidth).append("px;margin:24px auto;padding:0 16px}\n")
        .append("h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 2px}")
        .append("p{margin:4px 0 8px}.muted{color:#616161}\n")
        .append("table{border-collapse:collapse;margin:12px 0}td,th{padding:3px 10px;text-align:right;")
        .append("border-bottom:1px solid #e0e0e0}td:first-child,th:first-child{text-align:left}\n")
        .append(css)
        .append("</style>\n</head>\n<body>\n");
    return html;
  }

  /** {@code text} safe inside an element or a quoted attribute. */
  public static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  /** {@code 5} for 5.0, {@code 4.5} for 4.5. */
  public static String number(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
