package dev.polite.recipes

import java.nio.file.Files
import java.nio.file.Path
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/**
 * The Kotlin the pages show (docs/recipes.md) is this module's `PoliteCoroutines.kt`, word for
 * word, so what a Kotlin user copies is what the Kotlin Maven plugin compiled and
 * [PoliteCoroutinesTest] ran. It is the only ```kotlin block in README.md and docs/: a Kotlin
 * snippet nothing here compiles (a Gradle line, say) fails this test.
 */
class ReadmeRecipeTest {
  @Test
  fun thePagesOnlyKotlinIsTheCompiledRecipe() {
    val readme = Path.of(System.getProperty("polite.readme")).toAbsolutePath()
    val docs = readme.parent.resolve("docs")
    val pages = listOf(readme) + Files.list(docs).use { files ->
      files.filter { it.toString().endsWith(".md") }.sorted().toList()
    }
    val recipe = Files.readString(Path.of(System.getProperty("polite.recipe")))
    val blocks = pages.flatMap { page ->
      Regex("```kotlin\n(.*?)```", RegexOption.DOT_MATCHES_ALL)
        .findAll(Files.readString(page)).map { it.groupValues[1].trim() }.toList()
    }
    assertThat(blocks).containsExactly(recipe.trim())
    assertThat(Files.readString(docs.resolve("recipes.md"))).contains(recipe.trim())
  }
}
