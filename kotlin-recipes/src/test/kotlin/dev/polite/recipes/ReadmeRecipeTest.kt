package dev.polite.recipes

import java.nio.file.Files
import java.nio.file.Path
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/**
 * The README's Kotlin is this module's `PoliteCoroutines.kt`, word for word, so what a Kotlin user
 * copies is what the Kotlin Maven plugin compiled and [PoliteCoroutinesTest] ran. It is the only
 * ```kotlin block: a Kotlin snippet nothing here compiles (a Gradle line, say) fails this test.
 */
class ReadmeRecipeTest {
  @Test
  fun theReadmesOnlyKotlinIsTheCompiledRecipe() {
    val readme = Files.readString(Path.of(System.getProperty("polite.readme")))
    val recipe = Files.readString(Path.of(System.getProperty("polite.recipe")))
    val blocks = Regex("```kotlin\n(.*?)```", RegexOption.DOT_MATCHES_ALL)
      .findAll(readme).map { it.groupValues[1].trim() }.toList()
    assertThat(blocks).containsExactly(recipe.trim())
  }
}
