package dev.polite.internal;

import dev.polite.RequestView;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Which of one key's budgets each route spends, learned from the answers that name their budget
 * (GitHub's {@code x-ratelimit-resource}, Discord's {@code X-RateLimit-Bucket}, the IETF
 * {@code RateLimit} policy names). One host often keeps several: GitHub counts {@code /search}
 * against {@code search} (30 a minute) and the rest against {@code core} (5,000 an hour). Paced
 * as one, the key learns each budget's numbers in turn from whichever answer came last, so
 * search's spent count pauses every core call and core's 4,999 lets search calls through to be
 * refused.
 *
 * <h2>How routes find their budget</h2>
 * The budget the key's own state hears first is the key's: most servers name one budget only, and
 * for them nothing changes. An answer that names another budget gives that budget a state of its
 * own, named {@code key [budget]}, which learns the answer; the request's {@link Route} is
 * remembered as spending it, as is its family (the first path segment), and the route's next
 * calls wait for that budget alone. A route not yet seen goes by its family when the family is
 * known, and through the key's own state otherwise, whose answer teaches where it belongs, as
 * discord.js and JDA map routes to buckets. But while the key's own budget is paused (its quota
 * spent), such a route goes through the state {@code key [new routes]} instead, which starts
 * cautiously as every key does (one call at a time) and learns nothing itself: each answer goes
 * to the budget it names, and the route is remembered. So a spent budget holds back its own
 * routes only, at the cost of at most one refused call per route family it had not been seen to
 * spend (the routes of an answer that says its budget is spent are remembered at once). An
 * answer that names no budget stays with the state its call went through.
 *
 * <p>Until a second budget is heard of, the key is one budget, as it was before budgets: a
 * spent quota pauses every route, since nothing yet says that the host keeps another.
 *
 * <h2>Bounds</h2>
 * At most {@value #MAX_BUDGETS} budgets a key, with names of at most {@value #MAX_NAME} characters
 * (a budget past either is learned by the state the call went through, as before budgets), and
 * {@value #MAX_ROUTES} routes and families, least recently used forgotten first: a forgotten route
 * goes by its family again. A route is at most a method and six short segments, so a key's map
 * stays under about 150 KiB however hostile its paths.
 *
 * <p>Thread-safe: the lookups of a key that names one budget read one volatile field; the rest
 * lock this.
 */
public final class KeyBudgets {
  static final int MAX_BUDGETS = 16;
  static final int MAX_NAME = 64;
  static final int MAX_ROUTES = 1024;

  private final String key;
  /** The budget the key's own state learned first; null until an answer named one. */
  private volatile @Nullable String own;
  /**
   * Each other budget's state key, and route and family to the state key that spends it (least
   * recently used first): made when first needed, since most keys never name a second budget.
   */
  private @Nullable Map<String, String> others;
  private @Nullable Map<String, String> routes;
  /** Whether any answer named a budget other than the key's own: until then, every route is its. */
  private volatile boolean split;
  /** The state of routes whose budget is not known while the key's own is paused. */
  private final String newRoutes;

  KeyBudgets(String key) {
    this.key = key;
    this.newRoutes = stateKey(key, "new routes");
  }

  /** The state key of budget {@code budget} of {@code key}. */
  static String stateKey(String key, String budget) {
    return key + " [" + budget + "]";
  }

  /**
   * The state key that {@code request} spends: the key's own until answers named a second
   * budget; then the route's budget when it is known, else the key's own, unless that is paused
   * ({@code ownPaused}), when the request goes through the key's {@linkplain #newRoutes new
   * routes}: its route may spend another budget, which that pause must not hold back.
   */
  public String spentBy(RequestView request, BooleanSupplier ownPaused) {
    if (!split) {
      return key; // no answer named a second budget: one budget, the key's own
    }
    Route route = Route.of(request);
    synchronized (this) {
      Map<String, String> routes = routes();
      String spent = routes.get(route.exact());
      if (spent == null) {
        spent = routes.get(route.family());
      }
      if (spent != null) {
        return spent;
      }
    }
    return ownPaused.getAsBoolean() ? newRoutes : key;
  }

  /**
   * The state key whose budget an answer to {@code request}, sent through {@code sentThrough},
   * counts against: {@code budget}'s, as the answer named it; remembered for the request's route
   * once the key has several budgets, while its own is paused, or when the answer says its budget
   * is spent ({@code spent}: a spent budget's routes are the ones its pause must hold back).
   * {@code sentThrough} when the answer named no budget, or one past the bounds.
   */
  public String answeredFor(RequestView request, @Nullable String budget, boolean spent,
      String sentThrough) {
    if (budget == null || budget.length() > MAX_NAME) {
      return sentThrough;
    }
    synchronized (this) {
      if (own == null) {
        own = budget;
      }
      String owner;
      if (budget.equals(own)) {
        owner = key;
      } else {
        if (others == null) {
          others = new HashMap<>();
        }
        owner = others.get(budget);
        if (owner == null) {
          if (others.size() + 1 >= MAX_BUDGETS) {
            return sentThrough;
          }
          owner = stateKey(key, budget);
          others.put(budget, owner);
          split = true;
        }
      }
      if (split || spent || sentThrough.equals(newRoutes)) {
        Route route = Route.of(request);
        Map<String, String> routes = routes();
        routes.put(route.exact(), owner);
        routes.put(route.family(), owner);
      }
      return owner;
    }
  }

  /** The routes remembered; guarded by this. */
  private Map<String, String> routes() {
    if (routes == null) {
      routes = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
          return size() > MAX_ROUTES;
        }
      };
    }
    return routes;
  }

  @Override
  public synchronized String toString() {
    return "KeyBudgets{" + key + " own=" + own + " others=" + (others == null ? "[]" : others.keySet())
        + " routes=" + (routes == null ? 0 : routes.size()) + '}';
  }
}
