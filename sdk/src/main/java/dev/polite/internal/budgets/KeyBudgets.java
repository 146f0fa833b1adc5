package dev.polite.internal.budgets;

import dev.polite.RateLimitSignals;
import dev.polite.RequestView;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
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
 * remembered as spending it, as are its parent and family ({@link Route}), and the route's next
 * calls wait for that budget alone. A route not yet seen goes by its parent or its family when
 * either is known, and through the key's own state otherwise, whose answer teaches where it
 * belongs, as discord.js and JDA map routes to buckets. But while the key's own budget is paused (its quota
 * spent), such a route goes through the state {@code key [new routes]} instead, which starts
 * cautiously as every key does (one call at a time) and learns nothing itself: each answer goes
 * to the budget it names, and the route is remembered. So a spent budget holds back its own
 * routes only, at the cost of at most one refused call per route family it had not been seen to
 * spend (the routes of an answer that says its budget is spent are remembered at once). An
 * answer that names no budget, on a key whose answers do, stays with the state its call went
 * through.
 *
 * <p>Until a second budget is heard of, the key is one budget, as it was before budgets: a
 * spent quota pauses every route, since nothing yet says that the host keeps another.
 *
 * <h2>Budgets nobody names</h2>
 * Many servers keep a budget per endpoint and never say which: X's API v2 answers each endpoint
 * with its own {@code x-rate-limit-limit} (900 per 15 minutes for one, 15 for another). Paced as
 * one, the generous endpoint's calls wait at the tight one's rate (8.5 s where 0.65 s would do, in
 * the run that showed it). Where the key's answers name no budget, what their quotas say tells
 * them apart ({@link #answeredUnnamed}, {@link QuotaProfile}): one budget cannot report two quotas
 * for one policy, nor answer with policies it never reported together. An answer that no budget
 * of the key can have given makes a budget of its own, named by its quotas ({@code key [15]}),
 * and its route moves there, exactly as a named budget's does; an answer that reports no quota
 * stays where it went. A server that reports the same quota for two budgets is still read as
 * one, as before: a merge costs what it always cost, a split costs at most the one call that
 * showed it (and never lets a route exceed what its own budget reported).
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
  /**
   * What the key's own budget reports, when its answers name no budget: null until one reported a
   * quota ({@link QuotaProfile}).
   */
  private volatile @Nullable QuotaProfile ownProfile;
  /** Each other unnamed budget's state key and profile; made when first needed, guarded by this. */
  private @Nullable Map<String, QuotaProfile> profiles;

  public KeyBudgets(String key) {
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
      if (spent == null && route.parent() != null) {
        spent = routes.get(route.parent());
      }
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
          if (budgetsKnown() + 1 >= MAX_BUDGETS) {
            return sentThrough;
          }
          owner = stateKey(key, budget);
          others.put(budget, owner);
          split = true;
        }
      }
      if (split || spent || sentThrough.equals(newRoutes)) {
        remember(Route.of(request), owner);
      }
      return owner;
    }
  }

  /**
   * The state key whose budget an answer that names none counts against, by what its quotas say
   * ({@link QuotaProfile}): the budget it went through ({@code sentThrough}) if one budget can
   * have reported both, else the key's own, else another budget of the key's that fits; else a
   * budget of its own, named by its quotas ({@code key [5]}), to which its route moves. The
   * route is remembered as {@link #answeredFor} remembers it. {@code sentThrough} when the
   * answer reports no quota at all, when the key's answers name their budgets (an answer that
   * does not stays where it went), or past the bound of budgets.
   */
  public String answeredUnnamed(RequestView request, RateLimitSignals signals, boolean spent, String sentThrough) {
    if (own != null) {
      return sentThrough;
    }
    QuotaProfile mine = ownProfile;
    if (!split && mine != null && mine.covers(signals) && mine.fits(signals)) {
      return key; // one budget, reporting what it always does: most answers
    }
    synchronized (this) {
      if (own != null) {
        return sentThrough;
      }
      if (ownProfile == null) {
        ownProfile = QuotaProfile.of(signals);
        return ownProfile == null ? sentThrough : key;
      }
      String owner = fitting(signals, sentThrough);
      if (owner == null) {
        QuotaProfile made = QuotaProfile.of(signals);
        if (made == null || budgetsKnown() + 1 >= MAX_BUDGETS) {
          return sentThrough;
        }
        owner = stateKey(key, made.budgetName());
        if (owner.equals(key) || profiles().containsKey(owner)) {
          return sentThrough; // reports a budget's quotas in another order: nothing to split by
        }
        profiles().put(owner, made);
        split = true;
      } else if (owner.equals(key)) {
        ownProfile = Objects.requireNonNull(ownProfile).with(signals);
      } else {
        profiles().computeIfPresent(owner, (k, profile) -> profile.with(signals));
      }
      if (split || spent || sentThrough.equals(newRoutes)) {
        remember(Route.of(request), owner);
      }
      return owner;
    }
  }

  /**
   * The unnamed budget one budget of which can have reported {@code signals}: the one it went
   * through first, then the key's own, then the others; null when none fits. Guarded by this.
   */
  private @Nullable String fitting(RateLimitSignals signals, String sentThrough) {
    QuotaProfile through = sentThrough.equals(key) ? ownProfile : profiles().get(sentThrough);
    if (through != null && through.fits(signals)) {
      return sentThrough;
    }
    if (Objects.requireNonNull(ownProfile).fits(signals)) {
      return key;
    }
    for (Map.Entry<String, QuotaProfile> other : profiles().entrySet()) {
      if (other.getValue().fits(signals)) {
        return other.getKey();
      }
    }
    return null;
  }

  /** The budgets other than the key's own, named and unnamed; guarded by this. */
  private int budgetsKnown() {
    return (others == null ? 0 : others.size()) + (profiles == null ? 0 : profiles.size());
  }

  /** The unnamed budgets' profiles; guarded by this. */
  private Map<String, QuotaProfile> profiles() {
    if (profiles == null) {
      profiles = new HashMap<>();
    }
    return profiles;
  }

  /** Remembers {@code route}, its parent and its family, as spending {@code owner}'s budget; guarded by this. */
  private void remember(Route route, String owner) {
    Map<String, String> routes = routes();
    routes.put(route.exact(), owner);
    if (route.parent() != null) {
      routes.put(route.parent(), owner);
    }
    routes.put(route.family(), owner);
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
    return "KeyBudgets{" + key + " own=" + (own != null ? own : ownProfile) + " others="
        + (others == null ? "[]" : others.keySet()) + (profiles == null ? "" : " unnamed=" + profiles.keySet())
        + " routes=" + (routes == null ? 0 : routes.size()) + '}';
  }
}
