import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin: the macros GraftMacros declares, by implementation type.
@main
struct GraftMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [InjectableMacro.self, InjectMacro.self]
}
