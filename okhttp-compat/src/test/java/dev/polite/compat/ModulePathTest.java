package dev.polite.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.compat.LocalServer.Reply;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The built jars as named modules, {@code dev.polite} (the core) and {@code dev.polite.okhttp}
 * (the adapter), beside the OkHttp under test (a module in 5.x, an automatic module
 * {@code okhttp3} in 4.12): their graph resolves, each exports its API and nothing else, the core
 * reads no OkHttp, and a call goes through them with every class loaded from the module layer.
 */
class ModulePathTest {
  /** The jar (or directory) each class was loaded from on the test's class path. */
  private static Path[] jarsOf(String... classNames) throws ClassNotFoundException, URISyntaxException {
    Set<Path> paths = new LinkedHashSet<>();
    for (String name : classNames) {
      Class<?> c = Class.forName(name);
      paths.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()));
    }
    return paths.toArray(Path[]::new);
  }

  private static ModuleLayer layer() throws Exception {
    ModuleFinder finder = ModuleFinder.of(jarsOf(
        "dev.polite.Polite",                 // polite-core
        "dev.polite.okhttp.PoliteInterceptor", // polite-okhttp
        "okhttp3.OkHttpClient",              // the OkHttp under test
        "okio.Buffer",                       // its okio
        "kotlin.Unit",                       // its Kotlin
        "dev.failsafe.Failsafe",             // polite-core's dependencies
        "org.slf4j.LoggerFactory",
        "org.slf4j.simple.SimpleLogger"));   // a provider, so SLF4J does not warn
    Set<String> roots = finder.findAll().stream()
        .map(r -> r.descriptor().name())
        .collect(Collectors.toSet());
    Configuration cf = ModuleLayer.boot().configuration().resolveAndBind(finder, ModuleFinder.of(), roots);
    // The platform loader as parent: nothing comes from the class path.
    return ModuleLayer.boot().defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
  }

  @Test
  void theCoreIsTheModuleDevPoliteAndReadsNoEngine() throws Exception {
    ModuleReference core = ModuleFinder.of(jarsOf("dev.polite.Polite")).findAll().iterator().next();
    ModuleDescriptor d = core.descriptor();

    assertThat(d.name()).isEqualTo("dev.polite");
    assertThat(d.isAutomatic()).isFalse();
    assertThat(d.exports()).extracting(ModuleDescriptor.Exports::source).containsExactly("dev.polite");
    assertThat(d.exports()).allMatch(e -> !e.isQualified());
    assertThat(d.requires()).extracting(ModuleDescriptor.Requires::name)
        .contains("dev.failsafe.core", "org.slf4j")
        .doesNotContain("okhttp3", "java.net.http");
  }

  @Test
  void theAdapterIsTheModuleDevPoliteOkhttpAndExportsOnlyItsApi() throws Exception {
    ModuleReference adapter = ModuleFinder.of(jarsOf("dev.polite.okhttp.PoliteInterceptor")).findAll()
        .iterator().next();
    ModuleDescriptor d = adapter.descriptor();

    assertThat(d.name()).isEqualTo("dev.polite.okhttp");
    assertThat(d.isAutomatic()).isFalse();
    assertThat(d.exports()).extracting(ModuleDescriptor.Exports::source).containsExactly("dev.polite.okhttp");
    assertThat(d.requires()).extracting(ModuleDescriptor.Requires::name)
        .contains("dev.polite", "okhttp3");
  }

  @Test
  void aCallGoesThroughPoliteOnTheModulePath() throws Exception {
    ModuleLayer layer = layer();
    Module core = layer.findModule("dev.polite").orElseThrow();
    Module polite = layer.findModule("dev.polite.okhttp").orElseThrow();
    Module okhttp = layer.findModule("okhttp3").orElseThrow();
    assertThat(polite.canRead(okhttp)).isTrue();
    assertThat(polite.canRead(core)).isTrue();
    assertThat(core.canRead(okhttp)).as("the core reads no engine").isFalse();
    assertThat(core.isExported("dev.polite")).isTrue();
    assertThat(core.getPackages()).as("the core's internal rooms")
        .contains("dev.polite.internal.model", "dev.polite.internal.call", "dev.polite.internal.retry");
    assertThat(core.getPackages()).filteredOn(p -> p.startsWith("dev.polite.internal"))
        .allSatisfy(p -> assertThat(core.isExported(p)).as(p).isFalse());

    try (LocalServer server = new LocalServer(path -> Reply.ok())) {
      ClassLoader loader = layer.findLoader("dev.polite.okhttp");
      Class<?> interceptorType = loader.loadClass("okhttp3.Interceptor");
      Object interceptor = loader.loadClass("dev.polite.okhttp.PoliteInterceptor").getMethod("create").invoke(null);
      assertThat(interceptor.getClass().getModule()).isSameAs(polite);

      Class<?> clientBuilderType = loader.loadClass("okhttp3.OkHttpClient$Builder");
      Object clientBuilder = clientBuilderType.getConstructor().newInstance();
      clientBuilderType.getMethod("addInterceptor", interceptorType).invoke(clientBuilder, interceptor);
      Object client = clientBuilderType.getMethod("build").invoke(clientBuilder);

      Class<?> requestBuilderType = loader.loadClass("okhttp3.Request$Builder");
      Object requestBuilder = requestBuilderType.getConstructor().newInstance();
      requestBuilderType.getMethod("url", String.class).invoke(requestBuilder, server.url("/module"));
      Object request = requestBuilderType.getMethod("build").invoke(requestBuilder);

      Class<?> clientType = loader.loadClass("okhttp3.OkHttpClient");
      Object call = clientType.getMethod("newCall", loader.loadClass("okhttp3.Request")).invoke(client, request);
      Method execute = loader.loadClass("okhttp3.Call").getMethod("execute");
      try (AutoCloseable response = (AutoCloseable) execute.invoke(call)) {
        assertThat(response.getClass().getModule()).isSameAs(okhttp);
        assertThat(response.getClass().getMethod("code").invoke(response)).isEqualTo(200);
      }
      Object pool = clientType.getMethod("connectionPool").invoke(client);
      pool.getClass().getMethod("evictAll").invoke(pool);
      assertThat(server.paths()).containsExactly("/module");
    }
  }
}
