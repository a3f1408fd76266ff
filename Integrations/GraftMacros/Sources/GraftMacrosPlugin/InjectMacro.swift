public import SwiftSyntax
public import SwiftSyntaxMacros

/// `@Inject`: marks the initializer `@Injectable` calls. It generates nothing; `InjectableMacro`
/// reads it.
public struct InjectMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
